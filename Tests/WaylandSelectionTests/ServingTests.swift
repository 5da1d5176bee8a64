// SPDX-License-Identifier: MIT
import Glibc
import Posix
import TestSupport
import Testing
import WaylandSelection

/// Selections the service owns, read by real Wayland programs (wl-paste) on headless sway.
@Suite(.serialized)
struct ServingTests {
    @Test("An owned clipboard reaches wl-paste byte for byte (multi-line UTF-8)")
    func clipboardToWlPaste() throws {
        let harness = try WaylandHarness()
        let text = Array("Zeile eins\nzweite: äöü ß ✓ 漢字 🎉\n\n\ttabbed last line".utf8)
        let token = try harness.service.own(
            .clipboard, formats: WaylandSelectionService.textFormats(text), secret: false)
        #expect(harness.service.owns(.clipboard))
        #expect(harness.service.ownershipToken(.clipboard) == token)
        let pasted = try harness.paste(["--no-newline"])
        #expect(pasted.termination == .exited(0), "\(pasted.errorText)")
        #expect(pasted.output == text)
        #expect(harness.pump { !harness.transfers.isEmpty })
        #expect(harness.transfers.first?.outcome == .complete)
        #expect(harness.transfers.first?.bytesWritten == text.count)
    }

    @Test("An owned primary selection reaches wl-paste --primary, apart from the clipboard")
    func primaryToWlPaste() throws {
        let harness = try WaylandHarness()
        #expect(harness.service.supportsPrimarySelection)
        _ = try harness.service.own(
            .clipboard, formats: WaylandSelectionService.textFormats(Array("clip".utf8)), secret: false)
        _ = try harness.service.own(
            .primary, formats: WaylandSelectionService.textFormats(Array("prim\när".utf8)), secret: false)
        let primary = try harness.paste(["--no-newline", "--primary"])
        #expect(primary.outputText == "prim\när", "\(primary.errorText)")
        #expect(try harness.paste(["--no-newline"]).outputText == "clip")
        #expect(harness.transfers.map(\.selection).sorted { "\($0)" < "\($1)" } == [.clipboard, .primary])
    }

    @Test("10 MiB reach wl-paste whole")
    func tenMebibytes() throws {
        let harness = try WaylandHarness()
        var random = SeededRandom(seed: 20)
        let text = (0..<(10 << 20)).map { _ in UInt8(ascii: "a") + UInt8(random.next() % 26) }
        _ = try harness.service.own(.clipboard, formats: [("text/plain;charset=utf-8", text)], secret: false)
        let pasted = try harness.paste(["--no-newline", "--type", "text/plain;charset=utf-8"])
        #expect(pasted.termination == .exited(0), "\(pasted.errorText)")
        #expect(pasted.output.count == text.count)
        #expect(pasted.output == text)
        #expect(harness.pump { !harness.transfers.isEmpty })
        #expect(harness.transfers.first?.bytesWritten == text.count)
    }

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
            #expect(result.output == text)
        }
        #expect(harness.pump { harness.transfers.count == 4 })
        #expect(harness.transfers.allSatisfy { $0.isComplete })
    }

    @Test("The secret hint is offered with the content secret")
    func secretHint() throws {
        let harness = try WaylandHarness()
        _ = try harness.service.own(
            .clipboard, formats: WaylandSelectionService.textFormats(Array("pw".utf8)), secret: true)
        let types = try harness.paste(["--list-types"])
        #expect(
            types.outputText.split(separator: "\n").contains("x-kde-passwordManagerHint"),
            "\(types.outputText)")
        let hint = try harness.paste(["--no-newline", "--type", "x-kde-passwordManagerHint"])
        #expect(hint.outputText == "secret")
        let plain = try harness.service.own(
            .clipboard, formats: WaylandSelectionService.textFormats(Array("open".utf8)), secret: false)
        _ = plain
        #expect(!(try harness.paste(["--list-types"]).outputText.contains("x-kde-passwordManagerHint")))
    }

    @Test("wl-copy taking the clipboard over is reported as the loss of that ownership")
    func lossToWlCopy() throws {
        let harness = try WaylandHarness()
        let token = try harness.service.own(
            .clipboard, formats: WaylandSelectionService.textFormats(Array("ours".utf8)), secret: false)
        try harness.sway.copy(Array("theirs".utf8))
        #expect(harness.pump { !harness.losses.isEmpty })
        #expect(harness.losses.count == 1)
        #expect(harness.losses.first?.selection == .clipboard)
        #expect(harness.losses.first?.token == token)
        #expect(!harness.service.owns(.clipboard))
        #expect(try harness.sway.paste().outputText == "theirs")
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

    @Test("Release clears the clipboard while it is ours")
    func releaseClears() throws {
        let harness = try WaylandHarness()
        let token = try harness.service.own(
            .clipboard, formats: WaylandSelectionService.textFormats(Array("gone".utf8)), secret: false)
        harness.service.release(.clipboard, token: token)
        #expect(!harness.service.owns(.clipboard))
        try harness.service.synchronize()
        #expect(harness.service.offeredTypes(.clipboard).isEmpty)
        let listed = try harness.paste(["--list-types"])
        #expect(listed.termination != .exited(0))
        #expect(listed.outputText.isEmpty)
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
