// SPDX-License-Identifier: MIT
import CliptabClient
import DBus
import Posix

/// What an attack may use: the daemon under test and a connection of its own.
public final class HostileContext {
    /// The daemon, its bus and its display.
    public let daemon: DaemonProcess
    /// The attacker's connection.
    public let connection: BusConnection

    /// The client that probes `GetCell` while the attack goes on.
    public let probe: GetCellProbe

    /// Makes the context of one attack on `daemon`, watched by `probe`.
    init(daemon: DaemonProcess, probe: GetCellProbe) throws {
        self.daemon = daemon
        self.probe = probe
        connection = try daemon.connect()
    }

    /// Calls `member` and describes the outcome: `done: <summary>` or `error: <short name>`.
    public func outcome(
        _ member: String, _ arguments: [BusValue], summary: ([BusValue]) -> String = { _ in "" }
    ) -> String {
        do {
            let values = try CliptabClient.call(connection, member, arguments, timeout: 20_000)
            return "done: " + summary(values)
        } catch let error as BusError {
            return "error: " + Cliptab.short(error.name)
        } catch {
            return "error: \(error)"
        }
    }

    /// Runs an X client with the daemon's display: `executable` with `arguments`, for at most
    /// `timeoutMilliseconds`.
    public func runXClient(_ executable: String, _ arguments: [String], timeoutMilliseconds: Int = 30_000)
        throws
        -> CommandResult
    {
        try ChildProcess.run(
            executable, arguments, environment: daemon.environment, timeoutMilliseconds: timeoutMilliseconds)
    }

    /// Starts an X client with the daemon's display, without waiting for it.
    public func spawnXClient(_ executable: String, _ arguments: [String]) throws -> ChildProcess {
        try ChildProcess.spawn(
            executable, arguments, environment: daemon.environment, stdout: .pipe, stderr: .null)
    }
}
