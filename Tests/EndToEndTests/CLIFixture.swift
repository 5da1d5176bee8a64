// SPDX-License-Identifier: MIT
import CliptabClient
import DBus
import DaemonTestSupport
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

/// A built `cliptabd` on a private bus (the shared `DaemonProcess`), and a way to run the
/// built `cliptab` against them.
final class CLIFixture: @unchecked Sendable {
    /// The daemon, its bus and its home.
    let session: DaemonProcess

    /// The fixture of the running suite (see `WithDaemon`).
    @TaskLocal static var current: CLIFixture?

    /// The X display of the daemon and the clients, if any.
    let display: String?

    /// The private bus.
    var bus: PrivateBus { session.bus }
    /// The daemon's home, which is the client's home too.
    var data: TemporaryDirectory { session.home }
    /// The daemon process.
    var daemon: ChildProcess { session.process }

    /// Starts the bus and the daemon (on `display`, when given), and waits until it answers.
    init(display: String? = nil) throws {
        session = try DaemonProcess(
            environment: display.map { ["DISPLAY": $0] } ?? [:], homePrefix: "cliptab-e2e")
        self.display = display
    }

    /// The environment of a client in a session with the bus at `bus` and no display; the
    /// runtime directory is the daemon's (`DaemonProcess`), as in a desktop session.
    static func environment(bus: String?, home: String) -> [String: String] {
        var environment = [
            "XDG_DATA_HOME": home + "/client-data", "HOME": home, "PATH": String(cString: getenv("PATH")),
            "LANG": "C.UTF-8", "XDG_RUNTIME_DIR": home + "/runtime",
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

    /// The daemon's typed client, for setups the CLI has no command for.
    var cliptab: CliptabClient { session.cliptab() }

    /// Stops the daemon, then the bus.
    func stop() { session.stop() }
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
