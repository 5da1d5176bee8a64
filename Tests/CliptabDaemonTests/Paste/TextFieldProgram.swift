// SPDX-License-Identifier: MIT
import Foundation
import Posix
import TestSupport

/// A program with a text field that writes the field's text to a file after every change,
/// and prints its window id once it shows (Tk or GTK, through Python).
final class TextFieldProgram {
    let process: ChildProcess
    let window: String
    let outputPath: String

    /// A Tk entry; `onPaste` replaces Tk's own Ctrl+V handling with Python code run for
    /// every Ctrl+V (with `r` the root and `e` the entry), or nil for Tk's own.
    static func tk(on desk: PasteDesk, onPaste: String? = nil) throws -> TextFieldProgram {
        guard let python = python(running: "import tkinter") else {
            throw FixtureError("python3 with tkinter is missing (python3-tk)")
        }
        return try TextFieldProgram(
            desk: desk, command: python, program: "tk_entry.py",
            ["PasteTarget"] + (onPaste.map { [$0] } ?? []))
    }

    /// A GTK 3 entry.
    static func gtk(on desk: PasteDesk) throws -> TextFieldProgram {
        guard
            let python = python(
                running: "import gi; gi.require_version('Gtk', '3.0'); from gi.repository import Gtk")
        else { throw FixtureError("python3 with GTK 3 is missing (python3-gi, gir1.2-gtk-3.0)") }
        return try TextFieldProgram(
            desk: desk, command: python, program: "gtk_entry.py", ["paste target", "xid"])
    }

    /// Starts `program` of `HelperPrograms` with `command`, the output file and `arguments`.
    private init(desk: PasteDesk, command: String, program: String, _ arguments: [String]) throws {
        outputPath = desk.data.appending("field-\(UInt32.random(in: 0...UInt32.max)).txt")
        process = try desk.start(command, ["-c", HelperPrograms.source(program), outputPath] + arguments)
        guard let line = process.readLine(timeoutMilliseconds: 20_000), !line.isEmpty else {
            throw FixtureError("the text field program did not start")
        }
        window = line
        try desk.focus(window)
    }

    /// The field's text now.
    var text: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }

    /// Waits until the field holds `expected` (false when it never did within 30 s).
    func waitForText(_ expected: String) -> Bool {
        (try? waitFor("the field's text", milliseconds: 30_000) { text == expected }) != nil
    }
}
