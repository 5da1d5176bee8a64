// SPDX-License-Identifier: MIT
import Foundation
import Posix
import TestSupport
import Testing
import X11Desktop

/// A clipboard manager made of Tk: it owns CLIPBOARD_MANAGER, and on SAVE_TARGETS copies
/// the clipboard's text and takes CLIPBOARD over, as managers do when an owner exits.
private let tkClipboardManager = HelperPrograms.source("tk_clipboard_manager.py")

/// Losing, releasing and handing over ownership; losing the display.
@Suite(.serialized)
struct OwnershipTests {
    @Test func releaseBeforeTheClearIsSeenKeepsTheNewOwner() throws {
        let harness = try Harness()
        try harness.service.own(.clipboard, text: Sample.ascii, secret: false)
        let other = try harness.spawn("xclip", ["-quiet", "-i", "-selection", "clipboard"], stdin: .pipe)
        defer { other.terminate(graceMilliseconds: 1000) }
        try other.write(Array("theirs".utf8))
        other.closeStandardInput()
        // Wait for the SelectionClear to arrive without handling it: the service still
        // believes it owns CLIPBOARD when it releases.
        var entry = pollfd(fd: harness.service.fileDescriptor, events: Int16(POLLIN), revents: 0)
        #expect(poll(&entry, 1, 5000) == 1)
        #expect(harness.service.owns(.clipboard))
        harness.service.release(.clipboard)
        harness.pump(milliseconds: 100)
        #expect(harness.losses.isEmpty, "a release is not a loss")
        let read = try harness.run(["xclip", "-selection", "clipboard", "-o"])
        #expect(read.outputText == "theirs")
    }

    @Test func invalidUTF8IsNotOwned() throws {
        let harness = try Harness()
        #expect(throws: SelectionError.invalidText) {
            try harness.service.own(.clipboard, text: [0x61, 0xFF], secret: false)
        }
        #expect(!harness.service.owns(.clipboard))
    }

    @Test func unreachableDisplayIsAClearError() throws {
        #expect(throws: SelectionError.cannotConnect(display: ":4999")) {
            try SelectionService.connect(display: ":4999")
        }
        let message = SelectionError.noDisplay.description
        #expect(message.contains("DISPLAY"))
    }

    @Test func killedDisplayBreaksTheServiceWithoutExiting() throws {
        let harness = try Harness()
        try harness.service.own(.clipboard, text: Sample.ascii, secret: false)
        // A read in flight when the server dies: its owner is stopped, so it waits.
        let owner = try harness.startOwner(
            ["xclip", "-quiet", "-i", "-selection", "primary"], text: Sample.ascii, selection: "primary")
        defer { owner.terminate(graceMilliseconds: 1000) }
        owner.signal(SIGSTOP)
        var pending: Result<[UInt8], SelectionReadError>?
        harness.service.readText(.primary, timeoutMilliseconds: 20_000, maxBytes: 1 << 20) { pending = $0 }
        harness.pump(milliseconds: 100)
        #expect(pending == nil)

        harness.display.stop()
        #expect(harness.pump(milliseconds: 5000) { harness.service.isBroken })
        guard case .failure(.unavailable)? = pending else {
            Issue.record("the read in flight should fail as unavailable, got \(String(describing: pending))")
            return
        }
        #expect(!harness.service.owns(.clipboard))
        #expect(harness.service.nextDeadline() == nil)
        #expect(throws: SelectionError.self) {
            try harness.service.own(.clipboard, text: Sample.ascii, secret: false)
        }
        var later: Result<[UInt8], SelectionReadError>?
        harness.service.readText(.clipboard, timeoutMilliseconds: 1000, maxBytes: 100) { later = $0 }
        guard case .failure(.unavailable)? = later else {
            Issue.record("a read after the loss should fail at once as unavailable")
            return
        }
        harness.service.release(.clipboard)
        harness.service.processEvents(now: MonotonicClock.milliseconds())
        #expect(!harness.service.handOverToClipboardManager(timeoutMilliseconds: 100))
    }

    @Test func handOverToAClipboardManager() throws {
        let harness = try Harness()
        let tk = try #require(python(running: "import tkinter"), "python3 with tkinter is missing")
        // Without a manager there is nothing to hand over to.
        try harness.service.own(.clipboard, text: Sample.ascii, secret: false)
        #expect(!harness.service.handOverToClipboardManager(timeoutMilliseconds: 1000))

        let manager = try harness.spawn(tk, ["-c", tkClipboardManager])
        defer { manager.terminate(graceMilliseconds: 1000) }
        #expect(manager.readLine(timeoutMilliseconds: 20_000) == "ready")
        // A secret is never handed over.
        try harness.service.own(.clipboard, text: Array("hunter2".utf8), secret: true)
        #expect(!harness.service.handOverToClipboardManager(timeoutMilliseconds: 1000))

        // No emoji: Tk 8.6 garbles characters outside the BMP when it serves large text.
        let text = Sample.large(1 << 20, emoji: false)
        try harness.service.own(.clipboard, text: text, secret: false)
        // A generous bound, not a speed goal: Tk fetches the 1 MiB in Tcl, chunk by chunk,
        // and with suites side by side on 2 cores it once took longer than 10 s.
        let started = MonotonicClock.milliseconds()
        #expect(harness.service.handOverToClipboardManager(timeoutMilliseconds: 30_000))
        #expect(MonotonicClock.milliseconds() - started < 30_000)
        #expect(manager.readLine(timeoutMilliseconds: 5000) == "saved")
        // The manager now owns CLIPBOARD with the text it fetched (through INCR).
        #expect(harness.pump(milliseconds: 5000) { !harness.service.owns(.clipboard) })
        let read = try harness.run(["xclip", "-selection", "clipboard", "-o"])
        #expect(mismatch(read.output, text) == nil)
    }
}
