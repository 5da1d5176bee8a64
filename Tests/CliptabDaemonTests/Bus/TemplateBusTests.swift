// SPDX-License-Identifier: MIT
import CliptabContract
import DBus
import DaemonTestSupport
import Foundation
import Glibc
import Posix
import TestSupport
import Testing

/// Templates through the built daemon on a private bus and Xvfb: rows filled in by Copy,
/// Cut and PasteToFocus, `{clipboard}` read from xclip owning the clipboard, the values of
/// `{input:…}`, the raw copy, the flag kept across a `kill -9`, and `{cursor}` placing the
/// caret of a Tk entry.
@Suite(.serialized)
struct TemplateBusTests {
    static let error = CliptabBus.errorPrefix

    /// A desk with templates table "t": row 0 reads the clipboard and asks for a name with a
    /// default, row 1 asks for a label without one.
    static func desk() throws -> PasteDesk {
        let desk = try PasteDesk(
            config: "[paste_to_focus]\ntimeout_ms = \(DaemonProcess.pasteDeadlineMilliseconds)\n")
        try desk.call("CreateTable", [s("t")])
        try desk.call(
            "InsertRows",
            [
                s("t"), i(0), i(0),
                strings(["Dear {input:Name=friend}, {clipboard}!", "To {input:Who}", "{{x}}"]),
            ])
        try desk.call("SetTemplates", [s("t"), .boolean(true)])
        return desk
    }

    /// The message of the error `call` throws, with its name.
    static func failure(_ body: () throws -> Void) -> (name: String, message: String)? {
        do {
            try body()
            return nil
        } catch let error as BusError {
            return (error.name, error.message)
        } catch {
            return ("not a BusError", "\(error)")
        }
    }

    /// Copy fills the row in with the text xclip serves; CopyWithInputs takes the values;
    /// CopyRaw copies the stored text; Expand copies nothing; a label without a value is
    /// InputRequired naming it, and the clipboard stays as it was.
    @Test func copyFillsInWhatXclipServes() throws {
        let desk = try Self.desk()
        try desk.ownClipboardElsewhere(Array("from xclip".utf8))
        #expect(try desk.call("Copy", [s("t"), i(0), i(0)]) == [s("Dear friend, from xclip!")])
        #expect(try desk.clipboard() == "Dear friend, from xclip!")
        // The clipboard is cliptabd's own copy now: {clipboard} reads it back.
        #expect(
            try desk.call("CopyWithInputs", [s("t"), i(0), i(0), inputs(["Name": "Ann"])])
                == [s("Dear Ann, Dear friend, from xclip!!")])
        #expect(try desk.call("CopyRaw", [s("t"), i(0), i(2)]) == [s("{{x}}")])
        #expect(try desk.clipboard() == "{{x}}")
        #expect(try desk.call("Expand", [s("t"), i(0), i(1), inputs(["Who": "Bo"])]) == [s("To Bo")])
        #expect(try desk.clipboard() == "{{x}}")
        let refused = Self.failure { try desk.call("Copy", [s("t"), i(0), i(1)]) }
        #expect(refused?.name == Self.error + "InputRequired")
        #expect(refused?.message.contains("\"Who\"") == true)
        #expect(try desk.clipboard() == "{{x}}")
        #expect(try desk.call("PerformAction", [s("t"), s("copy"), i(0), i(2)]) == [s("{x}")])
        #expect(try desk.clipboard() == "{x}")
        // Cut copies the filled-in text, then deletes the row; refused, it deletes nothing.
        #expect(
            Self.failure { try desk.call("Cut", [s("t"), i(0), i(1)]) }?.name == Self.error + "InputRequired")
        #expect(try desk.call("Cut", [s("t"), i(0), i(2)]) == [s("{x}")])
        #expect(try desk.call("GetSections", [s("t")]).description.contains("2"))
        // A table without templates copies braces as they are.
        try desk.call("SetTemplates", [s("t"), .boolean(false)])
        #expect(try desk.call("Copy", [s("t"), i(0), i(1)]) == [s("To {input:Who}")])
    }

    /// Rows are checked when stored; the flag is on disk before SetTemplates answers, so it
    /// survives a `kill -9`; a missing table is NoSuchTable.
    @Test func checkedAndDurable() throws {
        let desk = try Self.desk()
        let bad = Self.failure { try desk.call("InsertRow", [s("t"), i(0), i(-1), s("oops {date:%Q}")]) }
        #expect(bad?.name == Self.error + "InvalidTemplate")
        #expect(bad?.message.contains("at byte 11") == true)
        try desk.call("CreateTable", [s("code")])
        try desk.call("InsertRow", [s("code"), i(0), i(0), s("fn main() { }")])
        let refused = Self.failure { try desk.call("SetTemplates", [s("code"), .boolean(true)]) }
        #expect(refused?.name == Self.error + "InvalidTemplate")
        #expect(refused?.message.contains("row 0:0") == true)
        #expect(try desk.call("GetTemplates", [s("code")]) == [.boolean(false)])
        #expect(desk.daemon.errorName("GetTemplates", [s("ghost")]) == Self.error + "NoSuchTable")
        try desk.daemon.restart()
        #expect(try desk.call("GetTemplates", [s("t")]) == [.boolean(true)])
        #expect(try desk.call("Expand", [s("t"), i(0), i(2), inputs([:])]) == [s("{x}")])
    }

    /// GNOME Shell's ActivateResult copies a template row filled in, {clipboard} included.
    @Test func searchActivationFillsIn() throws {
        let desk = try PasteDesk(config: "[search]\nactivate = copy\n")
        try desk.call("CreateTable", [s("t")])
        try desk.call("InsertRow", [s("t"), i(0), i(0), s("greeting {{ {input:Who=world} }} {clipboard}")])
        try desk.call("SetTemplates", [s("t"), .boolean(true)])
        try desk.ownClipboardElsewhere(Array("xclip's".utf8))
        let shell = try ShellSearchClient(on: desk)
        let found = try shell.initialResults(["greeting"])
        _ = try shell.provider("ActivateResult", "(sasu)", [try #require(found.first), ["greeting"], 0])
            .values()
        try waitFor("the clipboard to hold the row filled in") {
            try desk.clipboard() == "greeting { world } xclip's"
        }
    }

    /// `[table "NAME"] templates` in the file: a reload turns them on, and a malformed row
    /// makes the reload report the table and the row, changing nothing; the zone of
    /// `{date}` is the daemon's `TZ`.
    @Test func configKeyAndZone() throws {
        let desk = try PasteDesk(config: "", environment: ["TZ": "Europe/Berlin"])
        try desk.call("CreateTable", [s("t")])
        try desk.call("InsertRow", [s("t"), i(0), i(0), s("{datetime:%Z}")])
        try desk.daemon.rewriteConfig("[table \"t\"]\ntemplates = true\n")
        #expect(try desk.daemon.reload() == [])
        #expect(try desk.call("GetTemplates", [s("t")]) == [.boolean(true)])
        let zone = try desk.call("Expand", [s("t"), i(0), i(0), inputs([:])])
        #expect(zone == [s("CET")] || zone == [s("CEST")], "\(zone)")
        try desk.call("CreateTable", [s("code")])
        try desk.call("InsertRow", [s("code"), i(0), i(0), s("if x { y }")])
        try desk.daemon.rewriteConfig("[table \"t\"]\ntemplates = true\n[table \"code\"]\ntemplates = yes\n")
        let problems = try desk.daemon.reload()
        #expect(problems.count == 1 && problems.first?.contains("\"code\"") == true, "\(problems)")
        #expect(problems.first?.contains("row 0:0") == true, "\(problems)")
        #expect(try desk.call("GetTemplates", [s("code")]) == [.boolean(false)])
    }

    /// After the paste, the caret of a Tk entry stands at `{cursor}`: cliptabd sent one Left
    /// per character after the mark, once the entry had the text.
    @Test func cursorPlacesTheCaretOfATkEntry() throws {
        let desk = try Self.desk()
        try desk.call("InsertRow", [s("t"), i(0), i(0), s("<b>{cursor}</b> é")])
        let field = try CaretField(on: desk)
        #expect(try desk.paste("t"), "\(desk.log.suffix(600))")
        let settled = try? waitFor("the caret at the mark", milliseconds: 10_000) {
            field.state == "<b></b> é|3"
        }
        #expect(settled != nil, "the entry shows \(field.state.debugDescription)")
    }
}

/// A Tk entry that writes its text and its insertion cursor (`index insert`) to a file, as
/// `TEXT|INDEX`, whenever either changes.
final class CaretField {
    let process: ChildProcess
    let outputPath: String

    init(on desk: PasteDesk) throws {
        guard let python = python(running: "import tkinter") else {
            throw FixtureError("python3 with tkinter is missing (python3-tk)")
        }
        let script = HelperPrograms.source("tk_caret_entry.py")
        outputPath = desk.data.appending("caret-\(UInt32.random(in: 0...UInt32.max)).txt")
        process = try desk.start(python, ["-c", script, outputPath])
        guard let window = process.readLine(timeoutMilliseconds: 20_000), !window.isEmpty else {
            throw FixtureError("the Tk entry did not start")
        }
        try desk.focus(window)
    }

    /// `TEXT|INDEX` now.
    var state: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }
}
