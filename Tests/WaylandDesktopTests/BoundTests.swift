// SPDX-License-Identifier: MIT
import Glibc
import Posix
import TestSupport
import Testing
import WaylandDesktop

/// What readers that stop reading and a compositor that stops answering may cost.
@Suite(.serialized)
struct BoundTests {
    /// 4 MiB: far more than the pipes between the service and a reader hold.
    private let large = (0..<(4 << 20)).map { UInt8(ascii: "a") + UInt8($0 % 26) }

    @Test("A wl-paste whose output is never read costs only its own transfer, which times out")
    func stalledReader() throws {
        let harness = try WaylandHarness(
            configuration: WaylandSelectionConfiguration(transferTimeoutMilliseconds: 3000))
        _ = try harness.service.own(.clipboard, formats: [("text/plain;charset=utf-8", large)], secret: false)
        let staller = try harness.spawn("wl-paste", ["--no-newline"])
        #expect(harness.pump { harness.service.activeTransferCount == 1 })
        let reader = harness.finish(try harness.spawn("wl-paste", ["--no-newline"]))
        #expect(reader.termination == .exited(0), "\(reader.errorText)")
        #expect(byteDifference(reader.output, large) == nil)
        // The other reader was served in full while the stalled transfer was still open.
        #expect(harness.transfers.count == 1)
        #expect(harness.transfers.first?.outcome == .complete)
        #expect(harness.service.activeTransferCount == 1)
        #expect(harness.pump { harness.transfers.count == 2 })
        let stalled = try #require(harness.transfers.last)
        #expect(stalled.outcome == .timedOut)
        #expect(stalled.bytesWritten < large.count)
        #expect(harness.service.activeTransferCount == 0)
        staller.terminate(graceMilliseconds: 1000)
    }

    @Test("A slow but steady reader is served whole: the transfer deadline restarts on progress")
    func slowSteadyReader() throws {
        let harness = try WaylandHarness(
            configuration: WaylandSelectionConfiguration(transferTimeoutMilliseconds: 250))
        let text = (0..<(1 << 20)).map { UInt8(ascii: "a") + UInt8($0 % 26) }
        _ = try harness.service.own(.clipboard, formats: [("text/plain;charset=utf-8", text)], secret: false)
        let started = MonotonicClock.milliseconds()
        // 16 KiB every 40 ms: some 2.6 s for the whole, ten times the transfer timeout.
        let result = harness.finish(try harness.spawn("wl-paste", ["--no-newline"]), pace: (16384, 40))
        #expect(MonotonicClock.milliseconds() - started > 1000)
        #expect(byteDifference(result.output, text) == nil)
        #expect(harness.pump { !harness.transfers.isEmpty })
        #expect(harness.transfers.map(\.outcome) == [.complete])
    }

    @Test("Past maximumTransfers a request is closed unanswered, and the one in flight goes on")
    func tooManyTransfers() throws {
        let harness = try WaylandHarness(
            configuration: WaylandSelectionConfiguration(
                transferTimeoutMilliseconds: 60_000, maximumTransfers: 1))
        _ = try harness.service.own(.clipboard, formats: [("text/plain;charset=utf-8", large)], secret: false)
        let staller = try harness.spawn("wl-paste", ["--no-newline"])
        #expect(harness.pump { harness.service.activeTransferCount == 1 })
        let refused = harness.finish(try harness.spawn("wl-paste", ["--no-newline"]))
        #expect(refused.output.isEmpty)
        #expect(harness.transfers.map(\.outcome) == [.tooManyTransfers])
        #expect(harness.service.activeTransferCount == 1)
        // The stalled reader's transfer resumes once its output is read.
        let rest = harness.finish(staller)
        #expect(byteDifference(rest.output, large) == nil)
        #expect(harness.pump { harness.transfers.count == 2 })
        #expect(harness.transfers.last?.outcome == .complete)
    }

    @Test("A compositor that stops answering costs own() the compositor timeout, then the service is broken")
    func stoppedCompositor() throws {
        let harness = try WaylandHarness()
        kill(harness.sway.process.pid, SIGSTOP)
        defer { kill(harness.sway.process.pid, SIGCONT) }
        let started = MonotonicClock.milliseconds()
        #expect(throws: WaylandError.compositorTimedOut("taking the clipboard")) {
            _ = try harness.service.own(
                .clipboard, formats: WaylandSelectionService.textFormats([65]), secret: false)
        }
        let elapsed = MonotonicClock.milliseconds() - started
        #expect(elapsed >= 900)
        #expect(elapsed < 2500)
        #expect(harness.service.isBroken)
        #expect(!harness.service.owns(.clipboard))
        harness.service.processEvents(now: MonotonicClock.milliseconds())
        #expect(harness.service.nextDeadline() == nil)
        var result: Result<[UInt8], WaylandReadError>?
        harness.service.read(.clipboard, mimeType: "text/plain", timeoutMilliseconds: 100, maxBytes: 10) {
            result = $0
        }
        harness.service.processEvents(now: MonotonicClock.milliseconds())
        #expect(result.map { if case .failure(.broken) = $0 { true } else { false } } == true)
    }

    @Test("Connecting to a compositor that does not answer fails within the compositor timeout")
    func connectToStoppedCompositor() throws {
        let sway = try HeadlessCompositor(.sway())
        kill(sway.process.pid, SIGSTOP)
        defer { kill(sway.process.pid, SIGCONT) }
        let started = MonotonicClock.milliseconds()
        #expect(throws: WaylandError.compositorTimedOut("listing the globals")) {
            _ = try WaylandSelectionService.connect(display: sway.socketPath)
        }
        #expect(MonotonicClock.milliseconds() - started < 2500)
    }

    @Test("A display that does not exist is a connect error naming it")
    func noDisplay() throws {
        let directory = try TemporaryDirectory()
        let path = directory.appending("wayland-none")
        #expect(throws: WaylandError.connectFailed(display: path, code: ENOENT)) {
            _ = try WaylandSelectionService.connect(display: path)
        }
    }
}
