// SPDX-License-Identifier: MIT
import Glibc
import Posix
import TestSupport
import Testing

@testable import X11Desktop

/// An X server that stops answering (SIGSTOP by pid) costs a call at most the deadline:
/// the round trip ends, the connection is broken, and connecting again works once the
/// server answers.
@Suite(.serialized)
struct ServerDeadlineTests {
    static let deadline = 500
    static let configuration = SelectionConfiguration(serverTimeoutMilliseconds: deadline)

    /// The time limit of a test that stops the server: past it the guard continues the
    /// server, so that a broken deadline fails the test instead of blocking it for ever.
    /// (The guard, not the tests' `.timeLimit`, catches a broken deadline: that limit only
    /// ends a hang, and is minutes because a full run on 2 loaded cores starved this test of
    /// the CPU for over a minute.)
    static let hangGuardMilliseconds = 10_000

    @Test(
        "a round trip to a stopped server ends after the deadline and breaks the connection",
        .timeLimit(.minutes(5)))
    func roundTripBounded() throws {
        let display = try VirtualDisplay()
        let server = display.process.pid
        let hangGuard = HangGuard(milliseconds: Self.hangGuardMilliseconds) { _ = kill(server, SIGCONT) }
        defer {
            hangGuard.disarm()
            display.process.signal(SIGCONT)
            display.stop()
        }
        let service = try SelectionService.connect(
            display: display.display, configuration: Self.configuration)
        display.process.signal(SIGSTOP)
        let start = MonotonicClock.milliseconds()
        var result: Result<[UInt8], SelectionReadError>?
        // Asks the server who owns CLIPBOARD: a round trip.
        service.readText(.clipboard, timeoutMilliseconds: 10_000, maxBytes: 100) { result = $0 }
        let elapsed = MonotonicClock.milliseconds() - start
        #expect(!hangGuard.fired, "the round trip blocked until the guard continued the server")
        #expect(elapsed >= UInt64(Self.deadline) - 50 && elapsed < 3000, "the read took \(elapsed) ms")
        #expect(service.isBroken)
        guard case .failure(.unavailable(let message))? = result else {
            Issue.record("expected .unavailable, got \(String(describing: result))")
            return
        }
        #expect(message.contains("did not answer"))
        #expect(throws: SelectionError.notAnswering(display: display.display, milliseconds: Self.deadline)) {
            try service.own(.clipboard, text: Array("x".utf8), secret: false)
        }
    }

    @Test(
        "connecting to a stopped server gives up at the deadline; a later attempt takes the late connection",
        .timeLimit(.minutes(5)))
    func connectBounded() throws {
        let display = try VirtualDisplay()
        let server = display.process.pid
        let hangGuard = HangGuard(milliseconds: Self.hangGuardMilliseconds) { _ = kill(server, SIGCONT) }
        defer {
            hangGuard.disarm()
            display.process.signal(SIGCONT)
            display.stop()
        }
        display.process.signal(SIGSTOP)
        let expected = SelectionError.notAnswering(display: display.display, milliseconds: Self.deadline)
        var start = MonotonicClock.milliseconds()
        #expect(throws: expected) {
            try SelectionService.connect(display: display.display, configuration: Self.configuration)
        }
        #expect(MonotonicClock.milliseconds() - start < 3000)
        // The first attempt still waits: the next one fails at once, with no second thread.
        start = MonotonicClock.milliseconds()
        #expect(throws: expected) {
            try SelectionService.connect(display: display.display, configuration: Self.configuration)
        }
        #expect(MonotonicClock.milliseconds() - start < 200)
        #expect(!hangGuard.fired, "connecting blocked until the guard continued the server")
        display.process.signal(SIGCONT)
        var service: SelectionService?
        let deadline = MonotonicClock.milliseconds() + 10_000
        while service == nil && MonotonicClock.milliseconds() < deadline {
            service = try? SelectionService.connect(
                display: display.display, configuration: Self.configuration)
            if service == nil { usleep(50_000) }
        }
        let connected = try #require(service)
        try connected.own(.clipboard, text: Array("back".utf8), secret: false)
        #expect(connected.owns(.clipboard))
    }
}
