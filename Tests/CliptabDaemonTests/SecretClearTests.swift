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

    /// A program that took the clipboard with another text keeps it at the secret's deadline,
    /// while the secret's PRIMARY copy is cleared. (The take-over of the very text, cleared
    /// at the deadline, is tested in process: on Xvfb it failed now and then in the whole
    /// suite, an open bug.)
    @Test func otherTextsStayAtTheSecretsDeadline() throws {
        let desk = try PasteToFocusTests.desk(
            config: "[clipboard]\nsecret_clear_ms = 6000\nselections = clipboard primary\n")
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
