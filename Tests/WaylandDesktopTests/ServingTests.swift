// SPDX-License-Identifier: MIT
import Glibc
import Posix
import TestSupport
import Testing
import WaylandDesktop

/// Selections the service owns, read by real Wayland programs (wl-paste) on headless sway.
@Suite(.serialized)
struct ServingTests {
    @Test("Several wl-paste at once each get the whole of a 1 MiB selection")
    func severalReaders() throws {
        let harness = try WaylandHarness()
        let text = [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20) + Array("end".utf8)
        _ = try harness.service.own(
            .clipboard, formats: WaylandSelectionService.textFormats(text), secret: false)
        let readers = try (0..<4).map { _ in try harness.spawn("wl-paste", ["--no-newline"]) }
        let results = readers.map { harness.finish($0) }
        for result in results {
            #expect(result.termination == .exited(0), "\(result.errorText)")
            #expect(byteDifference(result.output, text) == nil)
        }
        #expect(harness.pump { harness.transfers.count == 4 })
        #expect(harness.transfers.allSatisfy { $0.isComplete })
    }

    @Test("Taking the clipboard again is no loss, and a release with the old token keeps the new ownership")
    func retakeAndStaleRelease() throws {
        let harness = try WaylandHarness()
        let first = try harness.service.own(
            .clipboard, formats: WaylandSelectionService.textFormats(Array("one".utf8)), secret: false)
        let second = try harness.service.own(
            .clipboard, formats: WaylandSelectionService.textFormats(Array("two".utf8)), secret: false)
        #expect(first != second)
        harness.service.release(.clipboard, token: first)
        #expect(harness.service.owns(.clipboard))
        #expect(try harness.paste(["--no-newline"]).outputText == "two")
        #expect(harness.losses.isEmpty)
    }

    @Test(
        "Release after another program took the clipboard (its cancel not yet read) leaves that program's selection"
    )
    func releaseOnlyIfOurs() throws {
        let harness = try WaylandHarness()
        let token = try harness.service.own(
            .clipboard, formats: WaylandSelectionService.textFormats(Array("ours".utf8)), secret: false)
        // The service is not driven: the cancel of our source waits unread in its socket.
        try harness.sway.copy(Array("theirs".utf8))
        #expect(harness.service.owns(.clipboard))
        harness.service.release(.clipboard, token: token)
        try harness.service.synchronize()
        #expect(try harness.sway.paste().outputText == "theirs")
        #expect(
            harness.pump { harness.service.offeredTypes(.clipboard).contains("text/plain;charset=utf-8") })
        #expect(harness.losses.isEmpty)
    }
}
