// SPDX-License-Identifier: MIT
import DaemonTestSupport
import Foundation
import Posix
import TestSupport
import Testing

/// The paste chord on Xvfb, into a real Tk entry: chosen from the focus cliptabd reads
/// itself, and a chord that cannot be typed puts the clipboard back.
@Suite(.serialized)
struct PasteChordTests {
    /// Another client names its own window, classed as the terminal st, in the root's
    /// `_NET_ACTIVE_WINDOW` while the Tk entry has the focus: the entry still gets Ctrl+V
    /// (st's Ctrl+Shift+V would paste nothing into Tk), and the clipboard comes back.
    @Test func anotherClientsActiveWindowDoesNotChooseTheChord() throws {
        let desk = try PasteToFocusTests.desk()
        try desk.ownClipboardElsewhere(Array("before".utf8))
        let field = try TextFieldProgram.tk(on: desk)
        let claimer = try desk.start("python3", ["-c", Self.activeWindowClaim])
        let line = try #require(
            claimer.readLine(timeoutMilliseconds: 20_000), "the claiming client did not start")
        let claimed = try desk.run("xprop", ["-root", "_NET_ACTIVE_WINDOW"]).outputText
        #expect(
            line.hasPrefix("ready 0x") && claimed.contains(String(line.dropFirst("ready ".count))),
            "\(claimed)")

        #expect(try desk.paste("t"), "\(desk.log.suffix(600))")
        #expect(field.waitForText(PasteToFocusTests.cell), "the entry holds \(field.text.debugDescription)")
        #expect(try desk.clipboard() == "before")
    }

    /// A chord whose key no key of the keyboard types (`ctrl+Greek_alpha` on a US keymap):
    /// nothing is typed, the paste says why, and the other program's content is put back in
    /// place of the snippet.
    @Test func chordThatCannotBeTypedPutsTheClipboardBack() throws {
        let desk = try PasteToFocusTests.desk(
            config:
                "[paste_to_focus]\ntimeout_ms = \(DaemonProcess.pasteDeadlineMilliseconds)\nkey = ctrl+Greek_alpha\n"
        )
        try desk.ownClipboardElsewhere(Array("before".utf8))
        let field = try TextFieldProgram.tk(on: desk)
        let reply = try desk.call("PasteToFocusWithReason", [s("t"), i(0), i(0), .uint32(0)])
        guard case .boolean(let delivered)? = reply.first, case .string(let reason)? = reply.last else {
            throw FixtureError("PasteToFocusWithReason answered \(reply)")
        }
        #expect(!delivered)
        #expect(reason.contains("Greek_alpha"), "\(reason)")
        #expect(try desk.clipboard() == "before", "the snippet was left on the clipboard")
        #expect(field.text.isEmpty)
    }

    /// An X client (libX11 through ctypes) that makes a window classed as st, names it in
    /// the root's `_NET_ACTIVE_WINDOW`, prints `ready 0xID` and stays until stopped: its
    /// window must live for the property to name a class.
    static let activeWindowClaim =
        xlibPythonPrelude + HelperPrograms.source("active_window_claim.py")
}
