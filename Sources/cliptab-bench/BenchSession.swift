// SPDX-License-Identifier: MIT
import CliptabContract
import CliptabCore
import DBus
import Glibc
import Posix

/// What every suite that measures the running daemon needs: a temporary directory, a
/// private `dbus-daemon --session`, optionally a private Xvfb, and the release `cliptabd`
/// built beside this benchmark, started on them and answering.
final class BenchSession {
    /// The temporary directory (removed at the end).
    let root: String
    /// The private bus's address.
    let address: String
    /// The private display, when asked for (`:N`).
    let display: String?
    /// The environment for clients: the bus, the display, PATH, HOME.
    let environment: [String: String]
    /// The daemon.
    let daemon: ChildProcess
    private let bus: ChildProcess
    private let xvfb: ChildProcess?

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

    /// Starts everything; `withDisplay` adds an Xvfb that the daemon and clients use.
    init(name: String, withDisplay: Bool = false, daemonArguments: [String] = []) throws {
        let base = String(cString: getenv("TMPDIR") ?? strdup("/tmp"))
        var template = Array("\(base)/cliptab-\(name)-bench.XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw CliptabError(.storageFailure, "mkdtemp failed under \(base)")
        }
        root = String(cString: made)
        let daemonPath = try Self.binary("cliptabd")
        bus = try ChildProcess.spawn(
            "dbus-daemon", ["--session", "--nofork", "--print-address=1"], stdout: .pipe, stderr: .null)
        guard let address = bus.readLine(timeoutMilliseconds: 10_000), !address.isEmpty else {
            throw CliptabError(.storageFailure, "dbus-daemon printed no address")
        }
        self.address = address
        var environment = ["DBUS_SESSION_BUS_ADDRESS": address, "HOME": root, "LANG": "C.UTF-8"]
        if let path = getenv("PATH") { environment["PATH"] = String(cString: path) }
        if withDisplay {
            let server = try ChildProcess.spawn(
                "Xvfb", ["-nolisten", "tcp", "-screen", "0", "640x480x24", "-displayfd", "1"], stdout: .pipe,
                stderr: .null)
            guard let number = server.readLine(timeoutMilliseconds: 15_000).flatMap({ Int($0) }) else {
                throw CliptabError(.clipboardUnavailable, "Xvfb did not report a display")
            }
            xvfb = server
            display = ":\(number)"
            environment["DISPLAY"] = display
        } else {
            xvfb = nil
            display = nil
        }
        self.environment = environment
        daemon = try ChildProcess.spawn(
            daemonPath, ["--data-dir", root + "/data"] + daemonArguments, environment: environment,
            stdout: .null,
            stderr: .null)
        let client = try BusConnection.connect(address: address)
        let deadline = MonotonicClock.milliseconds() + 10_000
        while MonotonicClock.milliseconds() < deadline {
            if (try? call(client, "ListTables", [])) != nil { return }
            guard daemon.isRunning else {
                throw CliptabError(.storageFailure, "cliptabd exited during start-up")
            }
            usleep(20_000)
        }
        throw CliptabError(.storageFailure, "cliptabd did not answer within 10 s")
    }

    /// Calls a cliptab method on `client` and returns the reply's values.
    @discardableResult
    func call(_ client: BusConnection, _ member: String, _ values: [BusValue]) throws -> [BusValue] {
        let message = try BusMessage.methodCall(
            destination: CliptabBus.name, path: CliptabBus.path,
            interface: CliptabBus.interface, member: member)
        try message.append(values)
        return try client.call(message, timeoutMilliseconds: 60_000).readValues()
    }

    deinit {
        daemon.terminate()
        xvfb?.terminate()
        bus.terminate()
        _ = try? ChildProcess.run("rm", ["-rf", root])
    }
}
