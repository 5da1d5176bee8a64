// SPDX-License-Identifier: MIT
import CliptabContract
import Foundation
import Posix
import TestSupport

/// A GLib client of the desktop search interfaces on the desk's bus, calling them the way
/// GNOME Shell does (a `Gio.DBusProxy` of the provider's bus name and object, without
/// properties or signals, each call with its signature): one python3-gi process for a
/// whole test, one JSON line per call and per answer.
final class ShellSearchClient {
    /// The python program: reads `[path, interface, method, signature, arguments]` lines,
    /// answers `{"ok": values}` or `{"error": name, "message": text}`.
    static let script = HelperPrograms.source("shell_search_client.py")

    private let process: ChildProcess

    /// Starts the client on `desk`'s bus.
    init(on desk: PasteDesk) throws {
        guard let python = python(running: "from gi.repository import Gio") else {
            throw FixtureError("python3 with GLib's introspection is missing (python3-gi)")
        }
        process = try ChildProcess.spawn(
            python, ["-c", Self.script, CliptabBus.name], environment: desk.environment, stdin: .pipe,
            stdout: .pipe, stderr: .null)
    }

    deinit { process.terminate(graceMilliseconds: 500) }

    /// One answer: the reply's values, or the error's D-Bus name and message.
    enum Answer {
        case ok([Any])
        case error(String, String)

        /// The values; throws for an error.
        func values() throws -> [Any] {
            switch self {
            case .ok(let values): return values
            case .error(let name, let message): throw FixtureError("\(name): \(message)")
            }
        }

        /// The error's name, or nil for a reply.
        var errorName: String? {
            if case .error(let name, _) = self { return name }
            return nil
        }
    }

    /// Calls `method` of `interface` at `path` with `arguments` of `signature` (a tuple's).
    func call(_ path: String, _ interface: String, _ method: String, _ signature: String, _ arguments: [Any])
        throws -> Answer
    {
        let request = try JSONSerialization.data(withJSONObject: [
            path, interface, method, signature, arguments,
        ])
        try process.write(Array(request) + [0x0A])
        guard let line = process.readLine(timeoutMilliseconds: 30_000) else {
            throw FixtureError("the GLib client did not answer \(method)")
        }
        lastLine = line
        guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            throw FixtureError("the GLib client answered \(line)")
        }
        if let values = object["ok"] as? [Any] { return .ok(values) }
        return .error(object["error"] as? String ?? "", object["message"] as? String ?? "")
    }

    /// The last answer as the client printed it (JSON), to look for text that must not be there.
    private(set) var lastLine = ""

    /// Calls a method of the GNOME Shell search provider.
    func provider(_ method: String, _ signature: String, _ arguments: [Any]) throws -> Answer {
        try call(
            DesktopSearchBus.searchProviderPath, DesktopSearchBus.searchProviderInterface, method, signature,
            arguments)
    }

    /// Calls a method of the KRunner runner.
    func runner(_ method: String, _ signature: String, _ arguments: [Any]) throws -> Answer {
        try call(DesktopSearchBus.runnerPath, DesktopSearchBus.runnerInterface, method, signature, arguments)
    }

    /// `GetInitialResultSet(terms)`: the identifiers.
    func initialResults(_ terms: [String]) throws -> [String] {
        try provider("GetInitialResultSet", "(as)", [terms]).values().first as? [String] ?? []
    }

    /// `GetResultMetas(ids)`: each result's name and description.
    func metas(_ ids: [String]) throws -> [(id: String, name: String, description: String)] {
        let metas = try provider("GetResultMetas", "(as)", [ids]).values().first as? [[String: Any]] ?? []
        return metas.map {
            ($0["id"] as? String ?? "", $0["name"] as? String ?? "", $0["description"] as? String ?? "")
        }
    }
}
