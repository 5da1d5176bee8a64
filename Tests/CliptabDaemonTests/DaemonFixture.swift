// SPDX-License-Identifier: MIT
import DBus
import Glibc
import Posix
import TestSupport

/// A built `cliptabd` on a private bus with its own data directory, and a client connection
/// to it.
final class DaemonFixture {
    let bus: PrivateBus
    let data: TemporaryDirectory
    private(set) var daemon: ChildProcess
    let client: BusConnection

    let extraEnvironment: [String: String]
    let arguments: [String]

    init(extraArguments: [String] = [], extraEnvironment: [String: String] = [:]) throws {
        bus = try PrivateBus()
        data = try TemporaryDirectory(prefix: "cliptabd-test")
        self.extraEnvironment = extraEnvironment
        arguments = extraArguments
        daemon = try Self.start(bus: bus, data: data, arguments: extraArguments, extra: extraEnvironment)
        client = try BusConnection.connect(address: bus.address)
        try waitUntilServing()
    }

    /// The environment a daemon or a client tool gets: the private bus, no display.
    static func environment(bus: PrivateBus, data: TemporaryDirectory) -> [String: String] {
        [
            "DBUS_SESSION_BUS_ADDRESS": bus.address, "XDG_DATA_HOME": data.path, "HOME": data.path,
            "PATH": String(cString: getenv("PATH")), "LANG": "C.UTF-8",
        ]
    }

    var environment: [String: String] {
        Self.environment(bus: bus, data: data).merging(extraEnvironment) { $1 }
    }

    static func start(
        bus: PrivateBus, data: TemporaryDirectory, arguments: [String], extra: [String: String] = [:]
    ) throws -> ChildProcess {
        try ChildProcess.spawn(
            BuiltProducts.path(of: "cliptabd"), arguments,
            environment: environment(bus: bus, data: data).merging(extra) { $1 },
            stdout: .null, stderr: .null)
    }

    /// Starts another daemon process on the same bus and data (for takeover tests).
    func startAnother(_ arguments: [String]) throws -> ChildProcess {
        try Self.start(bus: bus, data: data, arguments: arguments, extra: extraEnvironment)
    }

    /// Kills the daemon with SIGKILL and starts a new one on the same store.
    func restart(signal: Int32 = SIGKILL) throws {
        daemon.signal(signal)
        _ = daemon.waitForExit()
        daemon = try Self.start(bus: bus, data: data, arguments: arguments, extra: extraEnvironment)
        try waitUntilServing()
    }

    /// Waits until the daemon owns its name (at most 10 s).
    func waitUntilServing() throws {
        let deadline = MonotonicClock.milliseconds() + 10_000
        while MonotonicClock.milliseconds() < deadline {
            if (try? call("ListTables")) != nil { return }
            if !daemon.isRunning { throw FixtureError("cliptabd exited during start-up") }
            usleep(20_000)
        }
        throw FixtureError("cliptabd did not answer within 10 s")
    }

    /// Calls a method of the cliptab interface; error replies are thrown as `BusError`.
    @discardableResult
    func call(_ member: String, _ arguments: [BusValue] = [], timeout: Int32 = 10_000) throws -> [BusValue] {
        let message = try BusMessage.methodCall(
            destination: "io.github.cliptab.Cliptab1", path: "/io/github/cliptab/Cliptab1",
            interface: "io.github.cliptab.Cliptab1", member: member)
        try message.append(arguments)
        return try client.call(message, timeoutMilliseconds: timeout).readValues()
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

    deinit {
        daemon.terminate()
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

/// The error prefix of the contract.
let errorPrefix = "io.github.cliptab.Cliptab1.Error."
