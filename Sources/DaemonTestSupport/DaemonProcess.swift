// SPDX-License-Identifier: MIT
import CliptabClient
import DBus
import Foundation
import Posix
import TestSupport

/// A built `cliptabd` under test on a private session bus, with its own home directory,
/// optionally its own Xvfb and configuration file, and the means to stop it, kill it and
/// start it again on the same store.
///
/// The daemon's environment: `HOME` is the fixture's home, `XDG_DATA_HOME` its `data`
/// directory, `XDG_RUNTIME_DIR` its `runtime` directory (as in a desktop session), `DISPLAY`
/// the fixture's display (if any), `LANG=C.UTF-8`, the caller's `PATH`, and what
/// `environment` adds. Its standard error is appended to `cliptabd.log` in the
/// home, over all its starts.
public final class DaemonProcess {
    /// The private session bus.
    public let bus: PrivateBus
    /// The daemon's home; the log and the default configuration file live here.
    public let home: TemporaryDirectory
    /// The fixture's own X server, when it was asked for one.
    public let virtualDisplay: VirtualDisplay?
    /// The store's directory: the `--data-dir` given, or else the daemon's default,
    /// `$XDG_DATA_HOME/cliptab` (unless a configuration file says otherwise).
    public let dataDirectory: String
    /// Whether the daemon is started with `--data-dir`.
    private let passesDataDirectory: Bool
    /// The path of the executable started.
    public let executable: String
    /// Arguments given to every start (after `--data-dir`, when there is one).
    public var arguments: [String]
    /// Variables added to the daemon's environment (`DISPLAY`, `LD_PRELOAD`…).
    public var extraEnvironment: [String: String]
    /// The running (or last) daemon process.
    public private(set) var process: ChildProcess
    /// How many times this fixture started the daemon.
    public private(set) var starts = 1
    /// A connection to the private bus, for calls.
    public let client: BusConnection
    /// How long a start may take until the daemon answers: a bound on hangs, generous for a
    /// machine loaded by parallel builds and suites.
    public static let startTimeoutMilliseconds: UInt64 = 60_000
    /// The wait for the target's fetch (`timeout_ms`, a call's timeout) that tests whose
    /// paste should succeed give the daemon: a bound on hangs, not a check, since a loaded
    /// machine can delay a window's fetch by seconds (the shipped 1 s, even 3 s, failed there).
    public static let pasteDeadlineMilliseconds: UInt32 = 30_000
    /// A configuration file of only `[paste_to_focus] timeout_ms` = `pasteDeadlineMilliseconds`.
    public static let pasteDeadlineConfig = "[paste_to_focus]\ntimeout_ms = \(pasteDeadlineMilliseconds)\n"

    /// Starts the bus (and an Xvfb when `withDisplay`), writes `config` (when given) to
    /// `$HOME/.config/cliptab/cliptab.conf`, runs `prepare` on the new home, starts the daemon
    /// with `arguments` and `environment`, and waits until it answers on the bus.
    ///
    /// `executable` defaults to the `cliptabd` built beside the running test bundle; `bus`
    /// is a session bus shared with other programs of the test (nil: a private one).
    public init(
        bus shared: PrivateBus? = nil, config: String? = nil, dataDirectory: String? = nil,
        arguments: [String] = [],
        environment: [String: String] = [:], withDisplay: Bool = false, executable: String? = nil,
        homePrefix: String = "cliptabd-test", prepare: (TemporaryDirectory) throws -> Void = { _ in }
    ) throws {
        bus = try shared ?? PrivateBus()
        home = try TemporaryDirectory(prefix: homePrefix)
        virtualDisplay = withDisplay ? try VirtualDisplay() : nil
        self.dataDirectory = dataDirectory ?? home.appending("data/cliptab")
        passesDataDirectory = dataDirectory != nil
        self.executable = executable ?? BuiltProducts.path(of: "cliptabd")
        self.arguments = arguments
        extraEnvironment = environment
        guard mkdir(Self.runtimeDirectory(of: home), 0o700) == 0 else {
            throw FixtureError(
                "cannot make \(Self.runtimeDirectory(of: home)): \(String(cString: strerror(errno)))")
        }
        if let config { try Self.write(config, to: home.appending(".config/cliptab/cliptab.conf")) }
        try prepare(home)
        client = try BusConnection.connect(address: bus.address)
        process = try Self.spawn(
            executable: self.executable,
            arguments: (dataDirectory.map { ["--data-dir", $0] } ?? []) + arguments,
            environment: Self.environment(bus: bus, home: home, display: virtualDisplay?.display)
                .merging(environment) { $1 },
            log: home.appending("cliptabd.log"))
        try waitUntilServing()
    }

    /// The session's `XDG_RUNTIME_DIR` in `home`.
    public static func runtimeDirectory(of home: TemporaryDirectory) -> String {
        home.appending("runtime")
    }

    /// The environment a daemon or a client of the session gets: the bus, the home, the
    /// data and runtime directories under it, `display` when given, `PATH` and `LANG`.
    public static func environment(
        bus: PrivateBus, home: TemporaryDirectory, display: String? = nil
    ) -> [String: String] {
        var environment = [
            "DBUS_SESSION_BUS_ADDRESS": bus.address, "HOME": home.path,
            "XDG_DATA_HOME": home.appending("data"), "XDG_RUNTIME_DIR": runtimeDirectory(of: home),
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "LANG": "C.UTF-8",
        ]
        environment["DISPLAY"] = display
        return environment
    }

    /// The environment the daemon runs with.
    public var environment: [String: String] {
        Self.environment(bus: bus, home: home, display: virtualDisplay?.display).merging(extraEnvironment) {
            $1
        }
    }

    /// The X display of the daemon (its own Xvfb, or the one `DISPLAY` in `environment`
    /// named), if any.
    public var display: String? { environment["DISPLAY"] }

    /// The log file: everything the daemon wrote to standard error, over all its starts.
    public var logPath: String { home.appending("cliptabd.log") }

    /// What the daemon has logged so far.
    public var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// The default configuration file: `$HOME/.config/cliptab/cliptab.conf`.
    public var configPath: String { home.appending(".config/cliptab/cliptab.conf") }

    /// Rewrites the default configuration file.
    public func rewriteConfig(_ text: String) throws { try Self.write(text, to: configPath) }

    /// `--data-dir` (when given) before `arguments` (the fixture's by default).
    private func startArguments(_ arguments: [String]? = nil) -> [String] {
        (passesDataDirectory ? ["--data-dir", dataDirectory] : []) + (arguments ?? self.arguments)
    }

    /// Starts `executable` with its standard error appended to `log`: through a shell that
    /// execs the daemon, so that the pid is the daemon's own.
    private static func spawn(
        executable: String, arguments: [String], environment: [String: String], log: String
    ) throws -> ChildProcess {
        try ChildProcess.spawn(
            "/bin/sh", ["-c", #"exec "$0" "$@" 2>>"$CLIPTAB_TEST_LOG""#, executable] + arguments,
            environment: environment.merging(["CLIPTAB_TEST_LOG": log]) { $1 }, stdout: .null, stderr: .null)
    }

    /// Writes `text` to `path`, making the directories above it.
    private static func write(_ text: String, to path: String) throws {
        let directory = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// Starts one more daemon process on the same bus, home and store with `arguments`
    /// instead of the fixture's (after `--data-dir`), without waiting for it; the caller
    /// owns it.
    public func spawnOther(arguments: [String], environment: [String: String] = [:]) throws -> ChildProcess {
        try Self.spawn(
            executable: executable, arguments: startArguments(arguments),
            environment: self.environment.merging(environment) { $1 }, log: logPath)
    }

    /// Sends `signal` to the daemon and reaps it.
    @discardableResult
    public func kill(_ signal: Int32 = SIGKILL) -> Termination {
        process.signal(signal)
        return process.waitForExit()
    }

    /// Starts the daemon again on the same store (after `kill`), and waits until it serves.
    public func start() throws {
        precondition(!process.isRunning, "start() while the daemon runs")
        process = try Self.spawn(
            executable: executable, arguments: startArguments(), environment: environment, log: logPath)
        starts += 1
        try waitUntilServing()
    }

    /// Kills the daemon with `signal` (`kill -9` by default) and starts it again.
    public func restart(_ signal: Int32 = SIGKILL) throws {
        kill(signal)
        try start()
    }

    /// Waits until the daemon answers `ListTables` on the bus (at most
    /// `startTimeoutMilliseconds`).
    public func waitUntilServing() throws {
        let deadline = MonotonicClock.milliseconds() + Self.startTimeoutMilliseconds
        while MonotonicClock.milliseconds() < deadline {
            if (try? client.call(CliptabClient.message("ListTables"), timeoutMilliseconds: 2000)) != nil {
                return
            }
            if !process.isRunning {
                throw FixtureError(
                    "cliptabd exited during start-up (\(process.waitForExit())); its log: \(log)")
            }
            usleep(10_000)
        }
        throw FixtureError(
            "cliptabd did not answer within \(Self.startTimeoutMilliseconds / 1000) s; its log: \(log)")
    }

    /// Waits until `process`, a daemon started beside the fixture's (`--replace`), answers
    /// for the bus name: the fixture's own daemon may have exited already.
    public func waitUntilServingBy(_ process: ChildProcess) throws {
        let deadline = MonotonicClock.milliseconds() + Self.startTimeoutMilliseconds
        while MonotonicClock.milliseconds() < deadline && process.isRunning {
            if (try? call("ListTables")) != nil { return }
            usleep(20_000)
        }
        throw FixtureError(
            "the replacement did not answer within \(Self.startTimeoutMilliseconds / 1000) s (running: \(process.isRunning))"
        )
    }

    /// A new connection to the fixture's bus.
    public func connect() throws -> BusConnection { try BusConnection.connect(address: bus.address) }

    /// The daemon's typed client over `client`, whose calls may each take `timeout`
    /// milliseconds (generous by default: a loaded test machine).
    public func cliptab(timeout: Int32 = 30_000) -> CliptabClient {
        CliptabClient(connection: client, timeoutMilliseconds: timeout, sharedDeadline: false)
    }

    /// Calls a method of the cliptab interface; error replies are thrown as `BusError`.
    @discardableResult
    public func call(_ member: String, _ arguments: [BusValue] = [], timeout: Int32 = 10_000) throws
        -> [BusValue]
    {
        try CliptabClient.call(client, member, arguments, timeout: timeout)
    }

    /// The full error name a call fails with, or nil when it succeeds.
    public func errorName(_ member: String, _ arguments: [BusValue] = []) -> String? {
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
    public func tables() throws -> [String] { try Cliptab.strings(call("ListTables").first) }

    /// The problems `Reload` returns.
    public func reload() throws -> [String] { try Cliptab.strings(call("Reload").first) }

    /// The daemon's resident set size in KiB (VmRSS of /proc/PID/status).
    public var residentKiB: Int { ProcessFigures.field("VmRSS:", pid: process.pid, file: "status") }

    /// The daemon's resident set size once it has given freed heap back to the system, which
    /// it does within a second of its last work: waits for the figure to fall below what it
    /// is now and then to hold still for 200 ms, at most `milliseconds`.
    public func residentAfterTrimKiB(within milliseconds: UInt64 = 3000) -> Int {
        let start = residentKiB
        var last = start
        var fell = false
        var still = 0
        _ = eventually(within: milliseconds, every: 50) {
            let now = residentKiB
            fell = fell || now < start
            still = now == last ? still + 1 : 0
            last = now
            return fell && still >= 4
        }
        return last
    }

    /// Bytes the daemon has written through system calls so far (`wchar` of /proc/PID/io).
    public var writtenBytes: Int { ProcessFigures.field("wchar:", pid: process.pid, file: "io") }

    /// Stops the daemon (resumed if it was stopped; SIGTERM, then SIGKILL after 5 s), then
    /// the X server and the bus.
    public func stop() {
        process.signal(SIGCONT)
        process.terminate(graceMilliseconds: 5000)
        virtualDisplay?.stop()
        bus.stop()
    }

    deinit { stop() }
}
