// SPDX-License-Identifier: MIT
import Glibc
import Posix
import Testing
import X11Desktop

/// Transfer notices: the owner says when a client has the whole text, so that a paste can be
/// seen to happen.
@Suite(.serialized)
struct TransferReportTests {
    @Test func textTargetsReportDeliveryOthersDoNot() throws {
        let harness = try Harness()
        let acquired = try harness.service.own(.clipboard, text: Array("hello".utf8), secret: false)

        _ = try harness.run(["xclip", "-selection", "clipboard", "-t", "TARGETS", "-o"])
        #expect(!harness.transfers.isEmpty)
        #expect(harness.transfers.allSatisfy { !$0.textDelivered && $0.acquisitionTime == acquired })

        harness.clearNotices()
        let read = try harness.run(["xclip", "-selection", "clipboard", "-o"])
        #expect(read.outputText == "hello")
        #expect(harness.transfers.filter(\.textDelivered).count == 1)
        #expect(harness.transfers.allSatisfy { $0.selection == .clipboard && $0.acquisitionTime == acquired })
    }

    /// An incremental transfer reports the delivery once, after its last chunk.
    @Test func incrementalTransferReportsAtTheEnd() throws {
        let harness = try Harness(configuration: SelectionConfiguration(incrementalChunkBytes: 4096))
        var delivered = 0
        var deliveredWhileTransferring = false
        harness.noticed = { [weak service = harness.service] notice in
            guard case .transfer(let transfer) = notice, transfer.textDelivered else { return }
            delivered += 1
            if (service?.activeTransferCount ?? 0) > 0 { deliveredWhileTransferring = true }
        }
        let text = [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20)
        try harness.service.own(.clipboard, text: text, secret: false)
        let read = try harness.run(["xclip", "-selection", "clipboard", "-o"])
        #expect(read.output.count == text.count)
        #expect(delivered == 1)
        #expect(!deliveredWhileTransferring)
    }

    /// A requestor's windows and the owner's own belong to different clients.
    @Test func clientsAreToldApart() throws {
        let harness = try Harness()
        try harness.service.own(.clipboard, text: Array("x".utf8), secret: false)
        // The first requestor stays connected until the second has asked: a client that
        // disconnected would free its id for the next one (two xclips started together
        // often ran one after the other and shared it).
        let other = try SelectionService.connect(display: harness.display.display)
        var read: Result<[UInt8], SelectionReadError>?
        other.readText(.clipboard, timeoutMilliseconds: 10_000, maxBytes: 1 << 10) { read = $0 }
        let deadline = MonotonicClock.milliseconds() + 10_000
        while read == nil && MonotonicClock.milliseconds() < deadline {
            harness.step(milliseconds: 0)
            other.processEvents(now: MonotonicClock.milliseconds())
            usleep(1000)
        }
        #expect(try read?.get() == Array("x".utf8))
        _ = try harness.run(["xclip", "-selection", "clipboard", "-o"])
        let requestors = harness.transfers.map(\.requestor)
        let first = try #require(requestors.first)
        #expect(harness.service.sameClient(first, WindowID(rawValue: first.rawValue | 0x7)))
        #expect(requestors.contains { !harness.service.sameClient(first, $0) }, "\(requestors)")
    }
}
