// SPDX-License-Identifier: MIT
import CliptabContract
import DBus
import DaemonTestSupport
import Posix
import TestSupport
import Testing

/// The password-manager hint on a real display: a clipboard text that a Tk owner marks the
/// way KeePassXC does is never pasted into a table that is not secret, and a marked text
/// that a paste into the focused window puts back stays a secret.
@Suite(.serialized)
struct PasswordHintPasteTests {
    /// Table "t" as JSON, for comparing before and after.
    private func export(_ desk: PasteDesk, _ table: String = "t") throws -> [BusValue] {
        try desk.call("ExportTable", [s(table), s("json")])
    }

    /// Paste of a marked text: NotPermitted, saying why, into "t"; inserted into secret "s";
    /// an unmarked text is pasted into "t" as before.
    @Test func pasteOfAMarkedTextGoesOnlyIntoASecretTable() throws {
        let desk = try PasteToFocusTests.desk()
        try desk.ownClipboardMarked("correct horse", hint: "secret")
        let before = try export(desk)
        do {
            let reply = try desk.call("Paste", [s("t"), i(0), i(-1)])
            Issue.record("Paste of a marked text into a table that is not secret answered \(reply)")
        } catch let error as BusError {
            #expect(error.name == CliptabBus.errorPrefix + "NotPermitted")
            #expect(error.message.contains("marked secret by its owner"), "\(error.message)")
            #expect(error.message.contains("x-kde-passwordManagerHint"), "\(error.message)")
            #expect(error.message.contains("table \"t\" is not secret"), "\(error.message)")
        }
        #expect(try export(desk) == before)
        // The context menu's paste takes the same way.
        #expect(
            desk.daemon.errorName("PerformAction", [s("t"), s("paste"), i(0), i(0)])
                == CliptabBus.errorPrefix + "NotPermitted")
        #expect(try export(desk) == before)
        // Reading it is no storing: GetClipboard still gives it.
        #expect(try desk.call("GetClipboard") == [s("correct horse")])

        #expect(try desk.call("Paste", [s("s"), i(0), i(-1)]) == [s("correct horse")])
        #expect(try desk.call("GetCell", [s("s"), i(0), i(1)]) == [s("correct horse")])

        for mode in ["none", "public"] {
            try desk.ownClipboardMarked("open \(mode)", hint: mode)
            #expect(try desk.call("Paste", [s("t"), i(0), i(-1)]) == [s("open \(mode)")], "hint \(mode)")
        }
        #expect(try desk.call("GetCell", [s("t"), i(0), i(2)]) == [s("open public")])
    }

    /// A marked previous text comes back after PasteToFocus with the hint, without
    /// SAVE_TARGETS, and is cleared after `secret_clear_ms`; an unmarked one comes back
    /// without the hint and stays.
    @Test func pasteToFocusPutsAMarkedPreviousTextBackAsASecret() throws {
        let desk = try PasteToFocusTests.desk(
            config:
                "[clipboard]\nsecret_clear_ms = 1500\n[paste_to_focus]\ntimeout_ms = \(DaemonProcess.pasteDeadlineMilliseconds)\n"
        )
        let field = try TextFieldProgram.tk(on: desk)

        try desk.ownClipboardMarked("correct horse", hint: "none")
        #expect(try desk.paste("t"))
        #expect(field.waitForText(PasteToFocusTests.cell))
        #expect(try desk.clipboard() == "correct horse")
        #expect(try desk.clipboardHint() == nil)

        try desk.ownClipboardMarked("battery staple", hint: "secret")
        #expect(try desk.paste("t"))
        #expect(field.waitForText(PasteToFocusTests.cell + PasteToFocusTests.cell))
        #expect(try desk.clipboard() == "battery staple")
        #expect(try desk.clipboardHint() == "secret")
        let targets = try desk.run("xclip", ["-selection", "clipboard", "-t", "TARGETS", "-o"]).outputText
        #expect(!targets.contains("SAVE_TARGETS"), "\(targets)")
        try waitFor("the restored secret to be cleared") { try desk.clipboard() == nil }
    }
}
