// SPDX-License-Identifier: MIT
import DBus
import Foundation
import Posix
import TestSupport

/// A built `cliptabd` under test: its private bus, its data directory, its log file, and
/// the means to kill it and start it again on the same store.
final class Daemon {
    /// The private session bus.
    let bus: PrivateBus
    /// The home (and XDG data home) of the daemon; the log lives here too.
    let home: TemporaryDirectory
    /// The data directory passed with `--data-dir`.
    let dataDirectory: String
    /// Arguments added after `--data-dir`.
    var arguments: [String]
    /// Variables added to the daemon's environment (`DISPLAY`, `LD_PRELOAD`…).
    var extraEnvironment: [String: String]
    /// The running (or last) daemon process.
    private(set) var process: ChildProcess
    /// How many times this fixture started the daemon.
    private(set) var starts = 1

    /// Starts a daemon on a new private bus; `dataDirectory` nil uses one inside `home`.
    init(
        dataDirectory: String? = nil, arguments: [String] = [], environment: [String: String] = [:]
    ) throws {
        bus = try PrivateBus()
        home = try TemporaryDirectory(prefix: "cliptab-fault")
        self.dataDirectory = dataDirectory ?? home.appending("data")
        self.arguments = arguments
        extraEnvironment = environment
        process = try Self.spawn(
            bus: bus, home: home, dataDirectory: self.dataDirectory, arguments: arguments,
            environment: environment)
        try waitUntilServing()
    }

    /// The daemon's log: everything it wrote to standard error, over all its starts.
    var log: String { (try? String(contentsOfFile: home.appending("cliptabd.log"), encoding: .utf8)) ?? "" }

    /// The environment the daemon gets.
    static func environment(bus: PrivateBus, home: TemporaryDirectory) -> [String: String] {
        [
            "DBUS_SESSION_BUS_ADDRESS": bus.address, "XDG_DATA_HOME": home.path, "HOME": home.path,
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "LANG": "C.UTF-8",
        ]
    }

    /// Starts `cliptabd` with its standard error appended to the log file (a shell that
    /// execs the daemon, so the pid is the daemon's own).
    private static func spawn(
        bus: PrivateBus, home: TemporaryDirectory, dataDirectory: String, arguments: [String],
        environment extra: [String: String]
    ) throws -> ChildProcess {
        var environment = Self.environment(bus: bus, home: home).merging(extra) { $1 }
        environment["CLIPTAB_TEST_LOG"] = home.appending("cliptabd.log")
        return try ChildProcess.spawn(
            "/bin/sh",
            [
                "-c", #"exec "$0" "$@" 2>>"$CLIPTAB_TEST_LOG""#, BuiltProducts.path(of: "cliptabd"),
                "--data-dir", dataDirectory,
            ] + arguments,
            environment: environment, stdout: .null, stderr: .null)
    }

    /// Starts one more daemon process with `arguments` instead of the fixture's, without
    /// waiting for it; the caller owns it.
    func spawnOther(arguments: [String], environment: [String: String] = [:]) throws -> ChildProcess {
        try Self.spawn(
            bus: bus, home: home, dataDirectory: dataDirectory, arguments: arguments,
            environment: extraEnvironment.merging(environment) { $1 })
    }

    /// Sends `signal` to the daemon and reaps it.
    @discardableResult
    func kill(_ signal: Int32 = SIGKILL) -> Termination {
        process.signal(signal)
        return process.waitForExit()
    }

    /// Starts the daemon again on the same store (after `kill`), and waits until it serves.
    func start() throws {
        precondition(!process.isRunning, "start() while the daemon runs")
        process = try Self.spawn(
            bus: bus, home: home, dataDirectory: dataDirectory, arguments: arguments,
            environment: extraEnvironment)
        starts += 1
        try waitUntilServing()
    }

    /// Kills the daemon with `signal` and starts it again.
    func restart(_ signal: Int32 = SIGKILL) throws {
        kill(signal)
        try start()
    }

    /// Waits until the daemon answers on the bus (at most 20 s).
    func waitUntilServing() throws {
        let probe = try BusConnection.connect(address: bus.address)
        let deadline = MonotonicClock.milliseconds() + 20_000
        while MonotonicClock.milliseconds() < deadline {
            if (try? probe.call(Cliptab.message("ListTables"), timeoutMilliseconds: 2000)) != nil { return }
            if !process.isRunning {
                throw FixtureError("cliptabd exited during start-up (\(process.waitForExit())): \(log)")
            }
            usleep(5000)
        }
        throw FixtureError("cliptabd did not answer within 20 s")
    }

    /// The daemon's resident set size in KiB (VmRSS of /proc/PID/status).
    var residentKiB: Int {
        guard let status = try? String(contentsOfFile: "/proc/\(process.pid)/status", encoding: .utf8) else {
            return 0
        }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return Int(line.split(separator: " ")[1]) ?? 0
        }
        return 0
    }

    /// Bytes the daemon has written through system calls so far (`wchar` of /proc/PID/io).
    var writtenBytes: Int {
        guard let io = try? String(contentsOfFile: "/proc/\(process.pid)/io", encoding: .utf8) else {
            return 0
        }
        for line in io.split(separator: "\n") where line.hasPrefix("wchar:") {
            return Int(line.split(separator: " ")[1]) ?? 0
        }
        return 0
    }

    deinit {
        process.terminate(graceMilliseconds: 5000)
    }
}

/// Building and making calls of the cliptab interface.
enum Cliptab {
    /// The well-known name.
    static let name = "io.github.cliptab.Cliptab1"
    /// The object path.
    static let path = "/io/github/cliptab/Cliptab1"
    /// The error prefix of the contract.
    static let errorPrefix = "io.github.cliptab.Cliptab1.Error."

    /// A method call of the cliptab interface carrying `arguments`.
    static func message(_ member: String, _ arguments: [BusValue] = []) throws -> BusMessage {
        let message = try BusMessage.methodCall(
            destination: name, path: path, interface: name, member: member)
        try message.append(arguments)
        return message
    }

    /// Calls `member` on `connection` and waits for the reply's values.
    @discardableResult
    static func call(
        _ connection: BusConnection, _ member: String, _ arguments: [BusValue] = [],
        timeout: Int32 = 30_000
    ) throws -> [BusValue] {
        try connection.call(message(member, arguments), timeoutMilliseconds: timeout).readValues()
    }

    /// The short error name a call fails with (`IndexOutOfRange`, or a full name outside the
    /// contract), or nil when it succeeds.
    static func errorName(_ connection: BusConnection, _ member: String, _ arguments: [BusValue]) -> String? {
        do {
            try call(connection, member, arguments)
            return nil
        } catch let error as BusError {
            return short(error.name)
        } catch {
            return "\(error)"
        }
    }

    /// `IndexOutOfRange` for a contract error name; other names unchanged.
    static func short(_ name: String) -> String {
        name.hasPrefix(errorPrefix) ? String(name.dropFirst(errorPrefix.count)) : name
    }
}

/// `.string` shorthand.
func s(_ text: String) -> BusValue { .string(text) }
/// `.int32` shorthand.
func i(_ number: Int32) -> BusValue { .int32(number) }
/// `ai` shorthand.
func ai(_ numbers: [Int32]) -> BusValue { .array(elementSignature: "i", numbers.map { .int32($0) }) }
/// `as` shorthand.
func strings(_ texts: [String]) -> BusValue { .array(elementSignature: "s", texts.map { .string($0) }) }
