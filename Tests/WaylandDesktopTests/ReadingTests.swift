// SPDX-License-Identifier: MIT
import Posix
import TestSupport
import Testing
import WaylandDesktop

/// Reading what real Wayland programs (wl-copy, another service) offer on headless sway.
@Suite(.serialized)
struct ReadingTests {
    @Test("wl-copy's text is read back by readText, in the preferred text type")
    func readWlCopyText() throws {
        let harness = try WaylandHarness()
        let text = Array("copied by wl-copy\nzwei: ✓".utf8)
        try harness.sway.copy(text)
        #expect(harness.pump { !harness.service.offeredTypes(.clipboard).isEmpty })
        let result = try #require(harness.readText(.clipboard))
        let read = try result.get()
        #expect(read.bytes == text)
        #expect(read.mimeType == "text/plain;charset=utf-8")
        #expect(!read.markedSecret)
    }

    @Test("The primary selection of wl-copy --primary is read apart from the clipboard")
    func readPrimary() throws {
        let harness = try WaylandHarness()
        try harness.sway.copy(Array("clip".utf8))
        try harness.sway.copy(Array("prim".utf8), primary: true)
        #expect(
            harness.pump {
                !harness.service.offeredTypes(.primary).isEmpty
                    && !harness.service.offeredTypes(.clipboard).isEmpty
            })
        #expect(try harness.readText(.primary)?.get().bytes == Array("prim".utf8))
        #expect(try harness.readText(.clipboard)?.get().bytes == Array("clip".utf8))
    }

    @Test(
        "wl-copy --type image/png offers exactly image/png; its bytes read back, and readText says there is no text"
    )
    func imageTypes() throws {
        let harness = try WaylandHarness()
        let png: [UInt8] =
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D]
            + (0..<2000).map { UInt8($0 % 251) }
        try harness.sway.copy(png, type: "image/png")
        #expect(harness.pump { !harness.service.offeredTypes(.clipboard).isEmpty })
        #expect(harness.service.offeredTypes(.clipboard) == ["image/png"])
        #expect(try harness.read(.clipboard, mimeType: "image/png")?.get() == png)
        #expect(
            harness.readText(.clipboard).map { if case .failure(.noText) = $0 { true } else { false } }
                == true)
        #expect(
            harness.read(.clipboard, mimeType: "text/plain").map {
                if case .failure(.typeNotOffered) = $0 { true } else { false }
            } == true)
    }

    @Test("A read is bounded in bytes")
    func readTooLarge() throws {
        let harness = try WaylandHarness()
        try harness.sway.copy([UInt8](repeating: 65, count: 200_000))
        #expect(harness.pump { !harness.service.offeredTypes(.clipboard).isEmpty })
        let result = harness.read(.clipboard, mimeType: "text/plain;charset=utf-8", maxBytes: 100_000)
        #expect(
            result.map { if case .failure(.tooLarge(limit: 100_000)) = $0 { true } else { false } } == true)
        #expect(harness.service.pendingReadCount == 0)
    }

    @Test("Nothing offered: a read fails at once with nothingOffered")
    func nothingOffered() throws {
        let harness = try WaylandHarness()
        #expect(harness.service.offeredTypes(.clipboard).isEmpty)
        #expect(
            harness.readText(.clipboard).map {
                if case .failure(.nothingOffered) = $0 { true } else { false }
            } == true)
    }

    @Test("Another program's secret ownership is read as marked secret (the hint read first)")
    func readSecretOfAnother() throws {
        let harness = try WaylandHarness()
        let other = try harness.connectAnother()
        _ = try other.own(
            .clipboard, formats: WaylandSelectionService.textFormats(Array("hunter2".utf8)), secret: true)
        #expect(
            harness.pump(others: [other]) {
                harness.service.offeredTypes(.clipboard).contains("x-kde-passwordManagerHint")
            })
        let read = try #require(harness.readText(.clipboard, others: [other])).get()
        #expect(read.bytes == Array("hunter2".utf8))
        #expect(read.markedSecret)
    }

    @Test("Our own selection is read from our own data, with its secret mark")
    func readOwn() throws {
        let harness = try WaylandHarness()
        // sway 1.7 (Debian 12) has the wlr protocol only; ext_data_control_manager_v1 is
        // preferred where the compositor has both.
        #expect(harness.service.protocolName == "zwlr_data_control_manager_v1")
        let text = Array("mine ✓".utf8)
        _ = try harness.service.own(
            .clipboard, formats: WaylandSelectionService.textFormats(text), secret: true)
        let read = try #require(harness.readText(.clipboard)).get()
        #expect(read.bytes == text)
        #expect(read.markedSecret)
        #expect(harness.transfers.isEmpty)
    }

    @Test("A stopped owner costs a read its timeout, nothing else")
    func stoppedOwner() throws {
        let harness = try WaylandHarness()
        let other = try harness.connectAnother()
        _ = try other.own(
            .clipboard, formats: WaylandSelectionService.textFormats(Array("never sent".utf8)), secret: false)
        #expect(harness.pump(others: [other]) { !harness.service.offeredTypes(.clipboard).isEmpty })
        // The other service is never driven again: its send request stays unanswered.
        let started = MonotonicClock.milliseconds()
        let result = harness.read(.clipboard, mimeType: "text/plain", timeoutMilliseconds: 300)
        #expect(result.map { if case .failure(.timedOut) = $0 { true } else { false } } == true)
        #expect(MonotonicClock.milliseconds() - started >= 300)
        #expect(!harness.service.isBroken)
    }

    @Test("An owner that writes as GLFW does (one write loop, given up at EAGAIN) is read whole")
    func toolkitOwnerReadWhole() throws {
        let harness = try WaylandHarness()
        let text = Array(
            String(repeating: "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLM\n", count: 20_000).utf8)
        let owner = try ToolkitClipboardOwner(in: harness.sway, text: text)
        #expect(harness.pump { !harness.service.offeredTypes(.clipboard).isEmpty })
        let read = try #require(harness.read(.clipboard, mimeType: "text/plain;charset=utf-8")).get()
        #expect(byteDifference(read, text) == nil)
        // The owner's pipe end blocks: its one write loop wrote everything.
        #expect(owner.report() == "sent text/plain;charset=utf-8 1000000 0")
        withExtendedLifetime(owner) {}
    }

    @Test("The password hint is read one way: `secret` with blanks around it marks the text")
    func hintReading() {
        for hint in ["secret", "secret\n", " secret\r\n", "\tsecret "] {
            #expect(WaylandSelectionService.hintMarksSecret(Array(hint.utf8)), "\(hint.debugDescription)")
        }
        for hint in ["", "\n", "secrets", "not secret", "SECRET", "sec ret"] {
            #expect(!WaylandSelectionService.hintMarksSecret(Array(hint.utf8)), "\(hint.debugDescription)")
        }
    }
}
