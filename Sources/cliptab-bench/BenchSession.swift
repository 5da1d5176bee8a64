// SPDX-License-Identifier: MIT
import CliptabClient
import CliptabContract
import CliptabCore
import DBus
import DaemonTestSupport
import Glibc
import Posix

/// What every suite that measures the running daemon needs: the release `cliptabd` built
/// beside this benchmark, started on a private `dbus-daemon --session` (and, when asked, a
/// private Xvfb) with a temporary home, and answering: the tests' `DaemonProcess`.
final class BenchSession {
    /// The daemon, its bus, display and home.
    let process: DaemonProcess

    /// The temporary directory (removed at the end).
    var root: String { process.home.path }
    /// The private bus's address.
    var address: String { process.bus.address }
    /// The private display, when asked for (`:N`).
    var display: String? { process.display }
    /// The environment for clients: the bus, the display, PATH, HOME.
    var environment: [String: String] { process.environment }
    /// The daemon.
    var daemon: ChildProcess { process.process }

    /// The path of `name` built beside this benchmark, or an error saying how to build it.
    static func binary(_ name: String) throws -> String {
        let path = directory(of: StoreBenchmark.selfPath()) + "/" + name
        guard access(path, X_OK) == 0 else {
            throw CliptabError(
                .invalidArgument,
                "no \(name) beside the benchmark (\(path)): build it with `swift build -c release`")
        }
        return path
    }

    /// The directory part of `path`.
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return String(path[..<slash])
    }

    /// Starts everything; `withDisplay` adds an Xvfb that the daemon and clients use, `config`
    /// is the text of the daemon's cliptab.conf (nil: none).
    init(name: String, withDisplay: Bool = false, daemonArguments: [String] = [], config: String? = nil)
        throws
    {
        process = try DaemonProcess(
            config: config, arguments: daemonArguments, withDisplay: withDisplay,
            executable: try Self.binary("cliptabd"), homePrefix: "cliptab-\(name)-bench")
    }

    /// The daemon's typed client over `connection`, each call waiting at most 60 s.
    func cliptab(_ connection: BusConnection) -> CliptabClient {
        CliptabClient(connection: connection, timeoutMilliseconds: 60_000, sharedDeadline: false)
    }
}
