// SPDX-License-Identifier: MIT
import DBus
import Foundation
import Glibc
import Posix
import TestSupport

/// The repository's files, found from this source file's place in it.
enum Repository {
    /// The repository's root directory.
    static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// The text of the repository file at `relativePath`.
    static func text(_ relativePath: String) throws -> String {
        try String(contentsOfFile: "\(root)/\(relativePath)", encoding: .utf8)
    }
}

/// Writes `text` to `path`, making the directories above it.
func writeFile(_ path: String, _ text: String) throws {
    let directory = (path as NSString).deletingLastPathComponent
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    try text.write(toFile: path, atomically: true, encoding: .utf8)
}

/// True when a file or directory is at `path`.
func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

/// Waits until `condition` holds, at most `milliseconds`; returns whether it did.
func eventually(within milliseconds: UInt64 = 10_000, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = MonotonicClock.milliseconds() + milliseconds
    while MonotonicClock.milliseconds() < deadline {
        if try condition() { return true }
        usleep(20_000)
    }
    return try condition()
}

/// A built `cliptabd` on a private bus with its own home directory, started with a
/// configuration file and its standard error kept in a log file.
final class ConfiguredDaemon {
    let bus: PrivateBus
    let home: TemporaryDirectory
    let process: ChildProcess
    let client: BusConnection
    let environment: [String: String]

    /// The log file: everything the daemon wrote to standard error.
    var logPath: String { home.appending("cliptabd.log") }
    /// The default configuration file: `$HOME/.config/cliptab/cliptab.conf`.
    var configPath: String { home.appending(".config/cliptab/cliptab.conf") }

    /// Writes `config` (when given) to the default place in a new home, starts the daemon
    /// with `arguments`, and waits until it serves.
    init(
        config: String?, arguments: [String] = [], environment extra: [String: String] = [:],
        prepare: (TemporaryDirectory) throws -> Void = { _ in }
    ) throws {
        bus = try PrivateBus()
        home = try TemporaryDirectory(prefix: "cliptabd-config")
        environment = [
            "DBUS_SESSION_BUS_ADDRESS": bus.address, "HOME": home.path,
            "XDG_DATA_HOME": home.appending("data"), "PATH": String(cString: getenv("PATH")),
            "LANG": "C.UTF-8",
        ].merging(extra) { $1 }
        if let config { try writeFile(home.appending(".config/cliptab/cliptab.conf"), config) }
        try prepare(home)
        // Through sh only to send standard error to a file; exec keeps the pid the daemon's.
        process = try ChildProcess.spawn(
            "sh",
            ["-c", "exec \"$0\" \"$@\" 2>\"$CLIPTABD_LOG\"", BuiltProducts.path(of: "cliptabd")] + arguments,
            environment: environment.merging(["CLIPTABD_LOG": home.appending("cliptabd.log")]) { $1 },
            stdout: .null, stderr: .null)
        client = try BusConnection.connect(address: bus.address)
        let deadline = MonotonicClock.milliseconds() + 10_000
        while (try? call("ListTables")) == nil {
            if !process.isRunning || MonotonicClock.milliseconds() > deadline {
                throw FixtureError("cliptabd did not start; its log: \(log)")
            }
            usleep(20_000)
        }
    }

    /// What the daemon has logged so far.
    var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// Calls a method of the cliptab interface; error replies are thrown as `BusError`.
    @discardableResult
    func call(_ member: String, _ arguments: [BusValue] = []) throws -> [BusValue] {
        let message = try BusMessage.methodCall(
            destination: "io.github.cliptab.Cliptab1", path: "/io/github/cliptab/Cliptab1",
            interface: "io.github.cliptab.Cliptab1", member: member)
        try message.append(arguments)
        return try client.call(message, timeoutMilliseconds: 10_000).readValues()
    }

    /// The error name a call fails with, or nil when it succeeds.
    func errorName(_ member: String, _ arguments: [BusValue] = []) -> String? {
        do {
            try call(member, arguments)
            return nil
        } catch let error as BusError {
            return error.name
        } catch {
            return "not a BusError: \(error)"
        }
    }

    /// The table names.
    func tables() throws -> [String] { try stringList(call("ListTables")) }

    /// The problems `Reload` returns.
    func reload() throws -> [String] { try stringList(call("Reload")) }

    /// Rewrites the default configuration file.
    func rewriteConfig(_ text: String) throws { try writeFile(configPath, text) }

    deinit { process.terminate() }
}

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
