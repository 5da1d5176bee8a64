// SPDX-License-Identifier: MIT
import CliptabContract
import DBus
import DaemonTestSupport
import Posix
import TestSupport
import Testing

/// A template filled in with a secret stays a secret, on Xvfb with real programs: a Tk owner
/// that marks its text the way KeePassXC does, `{snippet:…}` of a table made secret in
/// cliptab.conf, the built `cliptab`, xclip reading TARGETS and the hint, and a Tk entry
/// pasted into.
@Suite(.serialized)
struct SecretTemplateTests {
    /// `selector` as xclip reads it with `target`, or nil when xclip finds none.
    static func read(_ desk: PasteDesk, _ selection: String, _ target: String? = nil) throws -> String? {
        let result = try desk.run(
            "xclip", ["-selection", selection, "-o"] + (target.map { ["-t", $0] } ?? []))
        return result.termination == .exited(0) ? result.outputText : nil
    }

    /// Runs the built `cliptab` with `arguments`; its standard output, after checking it
    /// exited 0.
    static func cliptab(_ desk: PasteDesk, _ arguments: [String]) throws -> String {
        let result = try desk.cliptab(arguments)
        #expect(result.termination == .exited(0), "cliptab \(arguments): \(result.errorText)")
        return result.outputText
    }

    /// Checks that `text` is on CLIPBOARD and PRIMARY with the hint `secret` in TARGETS and
    /// no SAVE_TARGETS, then that both are cleared.
    static func expectSecretCopy(_ desk: PasteDesk, _ text: String) throws {
        for selection in ["clipboard", "primary"] {
            #expect(try read(desk, selection) == text, "\(selection)")
            let targets = try read(desk, selection, "TARGETS") ?? ""
            #expect(targets.contains("x-kde-passwordManagerHint"), "\(selection) offers \(targets)")
            #expect(!targets.contains("SAVE_TARGETS"), "\(selection) offers \(targets)")
            #expect(try read(desk, selection, "x-kde-passwordManagerHint") == "secret", "\(selection)")
        }
        try waitFor("the filled-in secret to be cleared from both selections", milliseconds: 20_000) {
            try read(desk, "clipboard") == nil && read(desk, "primary") == nil
        }
    }

    /// `cliptab copy` of `{clipboard}` over a text a KeePassXC-like Tk owner marked: the copy
    /// carries the hint on both selections, is cleared after `secret_clear_ms`, and neither
    /// `cliptab` nor the log shows it; over an unmarked text it is printed and stays.
    @Test func clipboardMarkedByItsOwner() throws {
        let desk = try PasteDesk(
            config: "[clipboard]\nsecret_clear_ms = 6000\nselections = clipboard primary\n")
        try desk.call("CreateTable", [s("t")])
        try desk.call("InsertRow", [s("t"), i(0), i(0), s("login: {clipboard}")])
        try desk.call("SetTemplates", [s("t"), .boolean(true)])

        try desk.ownClipboardMarked("correct horse", hint: "secret")
        #expect(try Self.cliptab(desk, ["copy", "t", "0:0"]) == "", "cliptab printed the secret")
        try Self.expectSecretCopy(desk, "login: correct horse")
        #expect(!desk.log.contains("correct horse"), "\(desk.log)")

        try desk.ownClipboardMarked("open text", hint: "none")
        #expect(try Self.cliptab(desk, ["copy", "t", "0:0"]) == "login: open text")
        #expect(try desk.clipboardHint() == nil)
    }

    /// `{snippet:vault/bank}` with `vault` secret in cliptab.conf: a paste into a Tk entry
    /// leaves no secret behind, and `cliptab copy` and `cut` print nothing, their copies
    /// carry the hint and are cleared; a snippet of a plain table is printed as before.
    @Test func snippetOfATableSecretInTheFile() throws {
        let desk = try PasteDesk(
            config: """
                [clipboard]
                secret_clear_ms = 6000
                selections = clipboard primary
                [paste_to_focus]
                timeout_ms = \(DaemonProcess.pasteDeadlineMilliseconds)
                [table "vault"]
                secret = true
                [table "t"]
                templates = true
                """)
        try desk.call("InsertRow", [s("vault"), i(0), i(0), s("hunter2")])
        try desk.call("SetRowName", [s("vault"), i(0), i(0), s("bank")])
        try desk.call(
            "InsertRows",
            [
                s("t"), i(0), i(0),
                strings(["pin {snippet:vault/bank}", "pin {uuid}", "cut {snippet:vault/bank}"]),
            ])

        // Nothing on the clipboard before: a secret paste has nothing to put back, and goes.
        let field = try TextFieldProgram.tk(on: desk)
        #expect(try Self.cliptab(desk, ["copy", "t", "0:0", "--paste"]) == "")
        #expect(field.waitForText("pin hunter2"), "the entry holds \(field.text.debugDescription)")
        try waitFor("the pasted secret to leave the clipboard") { try Self.read(desk, "clipboard") == nil }

        #expect(try Self.cliptab(desk, ["copy", "t", "0:0"]) == "", "cliptab printed the secret")
        try Self.expectSecretCopy(desk, "pin hunter2")
        #expect(try Self.cliptab(desk, ["cut", "t", "0:2"]) == "", "cliptab cut printed the secret")
        try Self.expectSecretCopy(desk, "cut hunter2")
        #expect(!desk.log.contains("hunter2"), "\(desk.log)")

        let plain = try Self.cliptab(desk, ["copy", "t", "0:1"])
        #expect(plain.hasPrefix("pin ") && plain.count == 40, "\(plain)")
        #expect(try desk.clipboardHint() == nil)
    }
}
