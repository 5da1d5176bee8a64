// SPDX-License-Identifier: MIT
import DBus
import DaemonTestSupport
import Foundation
import Glibc
import Posix
import TestSupport

/// Writes `text` to `path`, making the directories above it.
func writeFile(_ path: String, _ text: String) throws {
    let directory = (path as NSString).deletingLastPathComponent
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    try text.write(toFile: path, atomically: true, encoding: .utf8)
}

/// True when a file or directory is at `path`.
func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

/// The strings of a reply made of one `as`.
func stringList(_ reply: [BusValue]) -> [String] {
    guard case .array(_, let items) = reply.first else { return [] }
    return items.compactMap {
        guard case .string(let text) = $0 else { return nil }
        return text
    }
}

/// Runs the built `cliptabd` to its end with `arguments` and `environment`.
func runDaemon(_ arguments: [String], environment: [String: String]) throws -> CommandResult {
    try ChildProcess.run(
        BuiltProducts.path(of: "cliptabd"), arguments, environment: environment, timeoutMilliseconds: 20_000)
}
