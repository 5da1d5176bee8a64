// SPDX-License-Identifier: MIT
import Posix

/// A private `dbus-daemon --session` for one test or suite, stopped by pid when released.
public final class PrivateBus {
    /// The address to put in `DBUS_SESSION_BUS_ADDRESS`.
    public let address: String
    /// The daemon process.
    public let process: ChildProcess

    /// Starts a session bus with the system's session configuration, or with the
    /// configuration file `configFile` when given.
    ///
    /// `commandPrefix` runs it as another user (`SessionUser.commandPrefix`), with
    /// `environment` instead of the test's (nil: the test's).
    public init(configFile: String? = nil, commandPrefix: [String] = [], environment: [String: String]? = nil)
        throws
    {
        let arguments =
            (configFile.map { ["--config-file=\($0)"] } ?? ["--session"]) + ["--nofork", "--print-address=1"]
        let argv = commandPrefix + ["dbus-daemon"] + arguments
        // Its stderr only ever says that an unprivileged bus cannot raise its fd limit.
        process = try ChildProcess.spawn(
            argv[0], Array(argv.dropFirst()), environment: environment, stdout: .pipe, stderr: .null)
        guard let line = process.readLine(timeoutMilliseconds: 30_000), !line.isEmpty else {
            process.terminate()
            throw FixtureError("dbus-daemon printed no address within 30 s")
        }
        address = line
    }

    /// Stops the bus daemon (SIGTERM, then SIGKILL).
    public func stop() { process.terminate(graceMilliseconds: 2000) }

    deinit { process.terminate(graceMilliseconds: 2000) }
}
