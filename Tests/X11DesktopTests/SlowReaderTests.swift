// SPDX-License-Identifier: MIT
import Glibc
import Posix
import TestSupport
import Testing
import X11Desktop

/// A requestor that reads an INCR transfer slowly but steadily.
@Suite(.serialized)
struct SlowReaderTests {
    /// The inactivity timeout measures the pause between chunks, not the whole transfer: a
    /// reader of 10 MiB that takes several times the timeout in all, but never pauses as long
    /// as the timeout between two chunks, receives every byte.
    @Test func steadyReaderSlowerThanTheTimeoutInAllGetsEverything() throws {
        let timeout = 1000
        let harness = try Harness(
            configuration: SelectionConfiguration(
                incrementalTimeoutMilliseconds: timeout, incrementalChunkBytes: 256 << 10))
        let text = Sample.large(10 << 20)
        try harness.service.own(.clipboard, text: text, secret: false)
        // The reader is a second client of the same server: our own requestor, driven one
        // event per call with a pause after each, so that it deletes the INCR property (asks
        // for the next chunk) about every 80 ms: 40 chunks take over 3 s.
        let reader = try SelectionService.connect(
            display: harness.display.display, configuration: SelectionConfiguration(maximumEventsPerCall: 1))
        var result: Result<[UInt8], SelectionReadError>?
        let started = MonotonicClock.milliseconds()
        reader.readText(.clipboard, timeoutMilliseconds: 20_000, maxBytes: 64 << 20) { result = $0 }
        while result == nil && MonotonicClock.milliseconds() < started + 30_000 {
            harness.step(milliseconds: 0)
            reader.processEvents(now: MonotonicClock.milliseconds())
            usleep(40_000)
        }
        let elapsed = Int(MonotonicClock.milliseconds() - started)
        #expect(elapsed > 2 * timeout, "the read took \(elapsed) ms; it must outlast the timeout to test it")
        switch result {
        case .success(let bytes)?:
            #expect(mismatch(bytes, text) == nil)
        case .failure(let error)?:
            Issue.record("the slow read failed after \(elapsed) ms: \(error)")
        case nil:
            Issue.record("the slow read did not finish within \(elapsed) ms")
        }
        #expect(harness.service.activeTransferCount == 0)
    }
}
