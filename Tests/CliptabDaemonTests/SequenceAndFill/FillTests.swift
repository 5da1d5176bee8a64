// SPDX-License-Identifier: MIT
import CliptabContract
import DBus
import DaemonTestSupport
import Foundation
import Posix
import TestSupport
import Testing

/// `cliptab fill` and `FillToFocus` on Xvfb (XTEST) into a GTK window of three entries: each
/// entry gets its row, the key between rows is the one asked for, the clipboard held before
/// is back afterwards, and a row the window never fetches stops the fill with its place.
@Suite(.serialized)
struct FillTests {
    /// A desk whose table "f" has the section "form" (first, second, third) and another
    /// section after it; "s" is a secret table of two rows.
    ///
    /// `config` is the daemon's, as `PasteToFocusTests.desk` takes it.
    static func desk(config: String = DaemonProcess.pasteDeadlineConfig) throws -> PasteDesk {
        let desk = try PasteToFocusTests.desk(config: config)
        try desk.call(
            "ImportTable",
            [s("f"), s("lines"), s("## form\nfirst\nsecond ü\nthird\n## after\nnot typed\n"), b(false)])
        try desk.call("InsertRow", [s("s"), i(0), i(1), s("second secret")])
        return desk
    }

    /// The GTK form on the desk's display, focused; returns the file its entries are written
    /// to.
    ///
    /// `deaf` numbers an entry that never fetches (-1: none).
    static func form(on desk: PasteDesk, deaf: Int = -1) throws -> String {
        guard
            let python = python(
                running: "import gi; gi.require_version('Gtk', '3.0'); from gi.repository import Gtk")
        else { throw FixtureError("python3 with GTK 3 is missing (python3-gi, gir1.2-gtk-3.0)") }
        let out = desk.data.appending("form-\(UInt32.random(in: 0...UInt32.max)).json")
        let program = try desk.start(
            python, ["-c", HelperPrograms.source("gtk_form.py"), out, "\(deaf)", "xid"])
        guard let window = program.readLine(timeoutMilliseconds: 20_000), !window.isEmpty else {
            throw FixtureError("the form did not start")
        }
        try desk.focus(window)
        return out
    }

    /// Waits until the form holds `entries` (and `activated` activations); the form as it
    /// is either way.
    static func waitForForm(_ path: String, _ entries: [String], activated: Int = 0) -> (
        entries: [String], activated: Int
    )? {
        _ = try? waitFor("the form's entries") {
            GtkForm.read(path).map { $0.entries == entries && $0.activated == activated } ?? false
        }
        return GtkForm.read(path)
    }

    /// `cliptab fill f @form:0`: the three rows, Tab between them, one in each entry; the
    /// section's end ends the fill; the other program's clipboard is back.
    @Test func fillsAFormWithTab() throws {
        let desk = try Self.desk()
        try desk.ownClipboardElsewhere(Array("before".utf8))
        let form = try Self.form(on: desk)
        let fill = try desk.run(
            BuiltProducts.path(of: "cliptab"), ["--timeout", "30", "fill", "f", "@form:0"])
        #expect(fill.termination == .exited(0), "\(fill.errorText)\n\(desk.log)")
        #expect(fill.standardOutput.isEmpty)
        let shown = Self.waitForForm(form, ["first", "second ü", "third"])
        #expect(shown?.entries == ["first", "second ü", "third"], "\(desk.log)")
        #expect(shown?.activated == 0)
        #expect(try desk.clipboard() == "before")
    }

    /// `--then enter` sends Return between rows (the form moves on and counts it); `--then
    /// none` sends nothing, so the rows follow one another in one entry; `--count` stops early.
    @Test func thenEnterAndThenNone() throws {
        let desk = try Self.desk()
        try desk.ownClipboardElsewhere(Array("before".utf8))
        let cliptab = BuiltProducts.path(of: "cliptab")
        let entered = try Self.form(on: desk)
        let enter = try desk.run(cliptab, ["--timeout", "30", "fill", "f", "0:0", "--then", "enter"])
        #expect(enter.termination == .exited(0), "\(enter.errorText)\n\(desk.log)")
        let afterEnter = Self.waitForForm(entered, ["first", "second ü", "third"], activated: 2)
        #expect(afterEnter?.entries == ["first", "second ü", "third"])
        #expect(afterEnter?.activated == 2, "Return was sent between the rows only")
        #expect(try desk.clipboard() == "before")

        let joined = try Self.form(on: desk)
        let none = try desk.run(
            cliptab, ["--timeout", "30", "fill", "f", "0:1", "--then", "none", "--count", "2"])
        #expect(none.termination == .exited(0), "\(none.errorText)\n\(desk.log)")
        let afterNone = Self.waitForForm(joined, ["second üthird", "", ""])
        #expect(afterNone?.entries == ["second üthird", "", ""])
        #expect(afterNone?.activated == 0)
        #expect(try desk.clipboard() == "before")
    }

    /// The third entry never fetches: the fill stops there with `row 3 of 3: …` (exit 1), the
    /// first two entries hold their rows, and the clipboard is put back all the same.
    @Test func aWindowThatNeverFetchesStopsTheFill() throws {
        // The deadline is what this test checks; the rows before the deaf entry must be
        // fetched within it too, hence 10 s rather than the usual generous bound.
        let desk = try Self.desk(config: "[paste_to_focus]\ntimeout_ms = 10000\n")
        try desk.ownClipboardElsewhere(Array("before".utf8))
        let form = try Self.form(on: desk, deaf: 2)
        let fill = try desk.run(BuiltProducts.path(of: "cliptab"), ["--timeout", "30", "fill", "f", "0:0"])
        #expect(fill.termination == .exited(1))
        #expect(
            fill.errorText.contains("row 3 of 3: the focused window did not fetch the text within 10000 ms"),
            "\(fill.errorText)")
        #expect(Self.waitForForm(form, ["first", "second ü", ""])?.entries == ["first", "second ü", ""])
        #expect(try desk.clipboard() == "before")

        // Over the bus: the rows fetched, and the same reason.
        let again = try Self.form(on: desk, deaf: 1)
        let reply = try desk.call(
            "FillToFocus", [s("f"), i(0), i(0), fillOptions(["count": .uint64(3)])], timeout: 30_000)
        #expect(reply.first == .uint32(1))
        #expect(
            reply.last == s("row 2 of 3: the focused window did not fetch the text within 10000 ms"),
            "\(reply)")
        #expect(Self.waitForForm(again, ["first", "", ""])?.entries == ["first", "", ""])
        #expect(try desk.clipboard() == "before")
    }

    /// A secret table's rows each carry the password hint while they are pasted, as a paste's
    /// does; afterwards the clipboard is what it was.
    @Test func secretRowsCarryTheHint() throws {
        let desk = try Self.desk()
        try desk.ownClipboardElsewhere(Array("before".utf8))
        let field = try TextFieldProgram.tk(
            on: desk,
            onPaste: """
                hint = r.clipboard_get(type='x-kde-passwordManagerHint')
                e.insert('end', r.clipboard_get() + '=' + bytes(int(x, 16) for x in hint.split()).decode() + ';')
                """)
        let reply = try desk.call(
            "FillToFocus", [s("s"), i(0), i(0), fillOptions(["then": s("none")])], timeout: 30_000)
        #expect(reply == [.uint32(2), s("")], "\(desk.log)")
        #expect(field.waitForText("hunter2=secret;second secret=secret;"), "\(field.text)")
        #expect(try desk.clipboard() == "before")
        #expect(try desk.clipboardHint() == nil)
    }

    /// Refused before anything is typed, with what was wrong: a count past the section's end,
    /// an unknown `then`, an unknown option; `--count 0` is a usage error of the command.
    @Test func badRequestsTypeNothing() throws {
        let desk = try Self.desk()
        try desk.ownClipboardElsewhere(Array("before".utf8))
        let past = desk.daemon.failure(
            "FillToFocus", [s("f"), i(0), i(1), fillOptions(["count": .uint64(3)])])
        #expect(past?.name == CliptabBus.errorPrefix + "InvalidArgument")
        #expect(
            past?.message.contains("section 0 has 2 rows from row 1 to its end") == true,
            "\(past?.message ?? "")")
        let then = desk.daemon.failure(
            "FillToFocus", [s("f"), i(0), i(0), fillOptions(["then": s("space")])])
        #expect(then?.name == CliptabBus.errorPrefix + "InvalidArgument")
        #expect(then?.message.contains("tab, enter, none") == true, "\(then?.message ?? "")")
        let unknown = desk.daemon.failure(
            "FillToFocus", [s("f"), i(0), i(0), fillOptions(["speed": .uint64(1)])])
        #expect(unknown?.name == CliptabBus.errorPrefix + "InvalidArgument")
        let usage = try desk.run(BuiltProducts.path(of: "cliptab"), ["fill", "f", "0:0", "--count", "0"])
        #expect(usage.termination == .exited(2), "\(usage.errorText)")
        #expect(try desk.clipboard() == "before")
        #expect(!desk.log.contains("fill of the focused window"))
    }
}
