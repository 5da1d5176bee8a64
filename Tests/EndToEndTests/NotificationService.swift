// SPDX-License-Identifier: MIT
import DaemonTestSupport
import Glibc
import Posix
import TestSupport

/// A stand-in for a desktop's notification server on a private bus: a small GLib (Gio)
/// service owning `org.freedesktop.Notifications` that prints each `Notify` it receives
/// as one line, `summary TAB body TAB urgency` (newlines in the text shown as `\n`).
final class NotificationService {
    /// The Python process.
    let process: ChildProcess

    /// The service, in Python with GLib's D-Bus bindings (python3-gi).
    static let script = HelperPrograms.source("notification_service.py")

    /// Starts the service on the bus of `environment` and waits until it owns its name.
    init(environment: [String: String]) throws {
        guard
            let python = python(
                running: "from gi.repository import Gio", path: environment["PATH"] ?? "/usr/bin:/bin")
        else {
            throw FixtureError("no python3 with GLib's bindings (python3-gi) on PATH")
        }
        process = try ChildProcess.spawn(python, ["-c", Self.script], environment: environment)
        guard process.readLine(timeoutMilliseconds: 20_000) == "ready" else {
            _ = process.terminate(graceMilliseconds: 500)
            throw FixtureError("the test notification service did not start")
        }
    }

    /// The next notification received, as `(summary, body, urgency)`; nil when none comes
    /// within `timeoutMilliseconds`.
    func next(timeoutMilliseconds: Int = 5000) -> (summary: String, body: String, urgency: String)? {
        guard let line = process.readLine(timeoutMilliseconds: timeoutMilliseconds) else { return nil }
        let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        guard fields.count == 3 else { return nil }
        return (fields[0], fields[1], fields[2])
    }

    /// Stops the service.
    func stop() { _ = process.terminate(graceMilliseconds: 1000) }
}
