// SPDX-License-Identifier: MIT
import DBus
import Glibc
import Posix
import TestSupport
import Testing

/// How a run of the built `cliptab` ended: its status and everything it printed.
struct Outcome: Equatable, CustomStringConvertible {
    /// The exit status (a signal's number negated when it was killed).
    let status: Int32
    /// Standard output.
    let out: String
    /// Standard error.
    let err: String

    /// An expected outcome.
    init(_ status: Int32, _ out: String, _ err: String = "") {
        self.status = status
        self.out = out
        self.err = err
    }

    /// The outcome of a finished run.
    init(_ result: CommandResult) {
        switch result.termination {
        case .exited(let code): status = code
        case .signaled(let signal): status = -signal
        }
        out = result.outputText
        err = result.errorText
    }

    /// The outcome for a failure message.
    var description: String {
        "status \(status), stdout \(out.debugDescription), stderr \(err.debugDescription)"
    }
}

/// The path of the built `cliptab`.
let cliptabPath = BuiltProducts.path(of: "cliptab")

/// The error prefix of the contract.
let errorPrefix = "io.github.cliptab.Cliptab1.Error."

/// Runs the built `cliptab` with exactly `environment`.
func runCliptab(
    _ arguments: [String], environment: [String: String], input: [UInt8]? = nil,
    timeoutMilliseconds: Int = 20_000
) throws -> Outcome {
    Outcome(
        try ChildProcess.run(
            cliptabPath, arguments, environment: environment, input: input,
            timeoutMilliseconds: timeoutMilliseconds))
}

/// A private bus, a built `cliptabd` on it with its own data directory, and a way to run the
/// built `cliptab` against them.
final class CLIFixture: @unchecked Sendable {
    /// The private bus.
    let bus: PrivateBus
    /// The daemon's store and the client's home.
    let data: TemporaryDirectory
    /// The daemon.
    let daemon: ChildProcess

    /// The fixture of the running suite (see `WithDaemon`).
    @TaskLocal static var current: CLIFixture?

    /// The X display of the daemon and the clients, if any.
    let display: String?

    /// Starts the bus and the daemon (on `display`, when given), and waits until
    /// `cliptab tables` succeeds.
    init(display: String? = nil) throws {
        bus = try PrivateBus()
        data = try TemporaryDirectory(prefix: "cliptab-e2e")
        self.display = display
        var daemonEnvironment = Self.environment(bus: bus.address, home: data.path)
        daemonEnvironment["DISPLAY"] = display
        daemon = try ChildProcess.spawn(
            BuiltProducts.path(of: "cliptabd"), ["--data-dir", data.appending("store")],
            environment: daemonEnvironment, stdout: .null, stderr: .null)
        let deadline = MonotonicClock.milliseconds() + 10_000
        while MonotonicClock.milliseconds() < deadline {
            if try run("tables").status == 0 { return }
            if !daemon.isRunning { throw FixtureError("cliptabd exited during start-up") }
            usleep(20_000)
        }
        throw FixtureError("cliptabd did not answer within 10 s")
    }

    /// The environment of a client in a session with the bus at `bus` and no display.
    static func environment(bus: String?, home: String) -> [String: String] {
        var environment = [
            "XDG_DATA_HOME": home + "/client-data", "HOME": home, "PATH": String(cString: getenv("PATH")),
            "LANG": "C.UTF-8",
        ]
        environment["DBUS_SESSION_BUS_ADDRESS"] = bus
        return environment
    }

    /// The environment the client runs with.
    var environment: [String: String] {
        var environment = Self.environment(bus: bus.address, home: data.path)
        environment["DISPLAY"] = display
        return environment
    }

    /// Runs `cliptab` with `arguments`, feeding `input` to its standard input.
    func run(_ arguments: String..., input: String? = nil) throws -> Outcome {
        try run(arguments, input: input)
    }

    /// Runs `cliptab` with `arguments`, feeding `input` to its standard input.
    func run(_ arguments: [String], input: String? = nil) throws -> Outcome {
        try runCliptab(arguments, environment: environment, input: input.map { Array($0.utf8) })
    }

    /// Calls the daemon directly over D-Bus, for setups the CLI has no command for.
    @discardableResult
    func call(_ member: String, _ arguments: [BusValue]) throws -> [BusValue] {
        let connection = try BusConnection.connect(address: bus.address)
        let message = try BusMessage.methodCall(
            destination: "io.github.cliptab.Cliptab1", path: "/io/github/cliptab/Cliptab1",
            interface: "io.github.cliptab.Cliptab1", member: member)
        try message.append(arguments)
        return try connection.call(message, timeoutMilliseconds: 10_000).readValues()
    }

    /// Stops the daemon, then the bus.
    func stop() {
        daemon.signal(SIGCONT)
        daemon.terminate()
        bus.stop()
    }
}

/// Starts one `CLIFixture` for a whole suite and stops it when the suite is done.
struct WithDaemon: SuiteTrait, TestScoping {
    /// Runs the suite with a fresh fixture as `CLIFixture.current`.
    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let fixture = try CLIFixture()
        defer { fixture.stop() }
        try await CLIFixture.$current.withValue(fixture) { try await function() }
    }
}

extension Trait where Self == WithDaemon {
    /// One daemon on a private bus for the whole suite.
    static var withDaemon: Self { WithDaemon() }
}

/// The running suite's fixture.
var cli: CLIFixture {
    guard let fixture = CLIFixture.current else { fatalError("the suite needs the .withDaemon trait") }
    return fixture
}

/// Reads one line from `descriptor` within `timeoutMilliseconds`; nil on end of file or timeout.
///
/// `buffer` keeps what was read past the line.
func readLine(from descriptor: Int32, buffer: inout [UInt8], timeoutMilliseconds: Int = 5000) -> String? {
    let deadline = MonotonicClock.milliseconds() + UInt64(timeoutMilliseconds)
    while true {
        if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
            let line = String(decoding: buffer[..<newline], as: UTF8.self)
            buffer.removeSubrange(...newline)
            return line
        }
        let now = MonotonicClock.milliseconds()
        guard now < deadline else { return nil }
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, Int32(deadline - now)) > 0 else { continue }
        var chunk = [UInt8](repeating: 0, count: 4096)
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count <= 0 { return nil }
        buffer += chunk[0..<count]
    }
}
