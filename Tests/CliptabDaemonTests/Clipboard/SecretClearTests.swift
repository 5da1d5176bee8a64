// SPDX-License-Identifier: MIT
import CliptabContract
import DBus
import DaemonTestSupport
import Posix
import TestSupport
import Testing

/// A secret never outlives its clear time, on Xvfb with real programs: a paste made
/// meanwhile does not give it more time, and a program that took the very text over (a
/// clipboard manager that ignores the hint) loses it at the deadline too.
@Suite(.serialized)
struct SecretClearTests {
    /// The secret is cleared at its copy's deadline although a paste put it back later:
    /// were the clear re-armed by the restore, it would come a whole `secret_clear_ms` after.
    @Test func pasteDoesNotRearmTheSecret() throws {
        let desk = try PasteToFocusTests.desk(
            config: "[clipboard]\nsecret_clear_ms = 3000\n[paste_to_focus]\ntimeout_ms = 5000\n")
        // Fetches 1500 ms after the key: the restore comes halfway through the secret's time.
        let field = try TextFieldProgram.tk(
            on: desk, onPaste: "r.after(1500, lambda: e.insert('end', r.clipboard_get()))")
        let copied = MonotonicClock.milliseconds()
        try desk.call("Copy", [s("s"), i(0), i(0)])
        #expect(try desk.paste("t"))
        #expect(field.waitForText(PasteToFocusTests.cell))
        #expect(try desk.clipboard() == "hunter2", "the secret was not put back after the paste")
        try waitFor("the secret to be cleared", milliseconds: 10_000) { try desk.clipboard() == nil }
        let cleared = MonotonicClock.milliseconds() - copied
        // Re-armed, it would go at 1500 + 3000 ms at the earliest.
        #expect(cleared < 4_400, "the secret went \(cleared) ms after its copy, not at 3000 ms")
    }

    /// A program that read the secret and took the clipboard with the same text has it
    /// cleared at the deadline; one that took it with another text keeps it, while the
    /// secret's PRIMARY copy is cleared.
    @Test func secretTakenOverIsClearedAndOtherTextsStay() throws {
        let desk = try PasteToFocusTests.desk(
            config: "[clipboard]\nsecret_clear_ms = 8000\nselections = clipboard primary\n")
        // The take-over must come before the deadline: 8 s leave room on a loaded machine.
        // Timed from before the copy, which bounds the take-over's time from above.
        let copied = MonotonicClock.milliseconds()
        try desk.call("Copy", [s("s"), i(0), i(0)])
        // A manager that ignores the hint: reads the text, then owns it itself.
        _ = try desk.start(
            "sh", ["-c", "xclip -selection clipboard -o | xclip -quiet -selection clipboard -i"])
        // xclip answers every target with its text, the hint's too: only ours says `secret`.
        // Seen in the owner's TARGETS (a failed read of the hint alone would look the same).
        try waitFor("the take-over") {
            let targets = try desk.run("xclip", ["-selection", "clipboard", "-t", "TARGETS", "-o"])
            let text = try desk.clipboard()
            return targets.termination == .exited(0) && targets.outputText.contains("UTF8_STRING")
                && !targets.outputText.contains("x-kde-passwordManagerHint") && text == "hunter2"
        }
        try #require(
            MonotonicClock.milliseconds() - copied < 8000, "the take-over came after the secret's deadline")
        try waitFor("the taken-over secret to be cleared", milliseconds: 12_000) {
            try desk.clipboard() == nil
        }

        try desk.call("Copy", [s("s"), i(0), i(0)])
        try desk.ownClipboardElsewhere(Array("the user's own text".utf8))
        try waitFor("the secret's PRIMARY copy to be cleared", milliseconds: 10_000) {
            try desk.run("xclip", ["-selection", "primary", "-o"]).termination != .exited(0)
        }
        // Reads are served in order: this one ends after the daemon's read-back.
        #expect(try desk.call("GetClipboard") == [s("the user's own text")])
        #expect(try desk.clipboard() == "the user's own text", "a text that is not the secret was cleared")
    }
}
