// SPDX-License-Identifier: MIT
import CliptabContract
import DBus
import DaemonTestSupport
import Foundation
import Glibc
import Posix
import TestSupport
import Testing

/// `PasteToFocus` and `cliptab copy --paste` on Xvfb, into real programs: a Tk entry, a GTK
/// entry and a terminal emulator.
@Suite(.serialized)
struct PasteToFocusTests {
    static let cell = "snippet ü → ok"

    /// A desk with table "t" (row 0: `cell`) and secret table "s" (row 0: "hunter2").
    ///
    /// The default wait for the fetch is `DaemonProcess.pasteDeadlineMilliseconds`, a bound
    /// on hangs: a loaded CI machine can take seconds to deliver a key and a request, and
    /// these tests are about what happens, not how fast (the paste benchmark measures that).
    static func desk(
        xtest: Bool = true, config: String = DaemonProcess.pasteDeadlineConfig
    ) throws -> PasteDesk {
        let desk = try PasteDesk(xtest: xtest, config: config)
        try desk.call("CreateTable", [s("t")])
        try desk.call("InsertRow", [s("t"), i(0), i(0), s(cell)])
        try desk.call("CreateTable", [s("s")])
        try desk.call("InsertRow", [s("s"), i(0), i(0), s("hunter2")])
        try desk.call("SetSecret", [s("s"), .boolean(true)])
        return desk
    }

    /// 200 pastes in a row land once each, and every time the clipboard is what it was:
    /// another program's text (read first, then served by cliptabd) or cliptabd's own.
    @Test func twoHundredPastesIntoTk() throws {
        let desk = try Self.desk()
        let field = try TextFieldProgram.tk(on: desk)
        var previous = ""
        var expected = ""
        for round in 0..<200 {
            if round % 2 == 0 {
                previous = "previous \(round)"
                try desk.ownClipboardElsewhere(Array(previous.utf8))
            }
            #expect(try desk.paste("t"), "paste \(round) was not fetched: \(desk.log.suffix(600))")
            expected += Self.cell
            #expect(
                field.waitForText(expected), "paste \(round): the entry holds \(field.text.count) characters")
            #expect(try desk.clipboard() == previous, "paste \(round): the clipboard was not restored")
            guard field.text == expected else { break }
        }
        #expect(!desk.log.contains("nothing to restore"), "\(desk.log)")
    }

    /// A GTK entry and st (Ctrl+Shift+V, chosen by its WM_CLASS) receive the text from
    /// `cliptab copy --paste`, which prints nothing and exits 0.
    @Test func gtkEntryAndTerminalThroughTheCommandLine() throws {
        let desk = try Self.desk()
        try desk.ownClipboardElsewhere(Array("before".utf8))

        let field = try TextFieldProgram.gtk(on: desk)
        let gtk = try desk.cliptab(["copy", "t", "0:0", "--paste"])
        #expect(gtk.termination == .exited(0), "\(gtk.errorText)")
        #expect(gtk.standardOutput.isEmpty)
        #expect(field.waitForText(Self.cell), "the GTK entry holds \(field.text.debugDescription)")
        #expect(try desk.clipboard() == "before")

        // st types a literal ^V on Ctrl+V: only Ctrl+Shift+V puts the text on the line.
        try desk.call("InsertRow", [s("t"), i(0), i(1), s("echo from cliptab")])
        let output = desk.data.appending("terminal.txt")
        let terminal = try desk.start(
            "stterm", ["-e", "sh", "-c", "read line; printf %s \"$line\" > \"$0\"", output])
        // Viewable, not only created: XSetInputFocus on a window not yet mapped is BadMatch.
        let search = try desk.run(
            "xdotool", ["search", "--sync", "--onlyvisible", "--pid", "\(terminal.pid)"])
        let window = try #require(search.outputText.split(separator: "\n").first.map(String.init))
        #expect(try desk.run("xprop", ["-id", window, "WM_CLASS"]).outputText.contains("st-256color"))
        try desk.focus(window)
        let st = try desk.cliptab(["copy", "t", "0:1", "--paste"])
        #expect(st.termination == .exited(0), "\(st.errorText)")
        _ = try desk.run("xdotool", ["key", "Return"])
        try waitFor("the terminal's line") {
            (try? String(contentsOfFile: output, encoding: .utf8)) == "echo from cliptab"
        }
        #expect(try desk.clipboard() == "before")
    }

    /// Tk asks for TARGETS, then for the text twice: the clipboard is restored only after
    /// the last request, so both fetches get the pasted text.
    @Test func targetThatAsksSeveralTimes() throws {
        let desk = try Self.desk()
        try desk.ownClipboardElsewhere(Array("before".utf8))
        let field = try TextFieldProgram.tk(
            on: desk,
            onPaste: """
                r.clipboard_get(type='TARGETS')
                first = r.clipboard_get()
                second = r.clipboard_get()
                e.insert('end', first + '|' + second)
                """)
        #expect(try desk.paste("t"))
        #expect(
            field.waitForText(Self.cell + "|" + Self.cell), "the entry holds \(field.text.debugDescription)")
        #expect(try desk.clipboard() == "before")
    }

    /// The target takes the clipboard right after its fetch: it is left alone, not
    /// overwritten by the restore.
    @Test func anotherOwnerBeforeTheRestoreIsLeftAlone() throws {
        let desk = try Self.desk()
        try desk.ownClipboardElsewhere(Array("before".utf8))
        let field = try TextFieldProgram.tk(
            on: desk,
            onPaste: """
                e.insert('end', r.clipboard_get())
                r.clipboard_clear()
                r.clipboard_append('taken by the target')
                """)
        #expect(try desk.paste("t"))
        #expect(field.waitForText(Self.cell), "the entry holds \(field.text.debugDescription)")
        #expect(try desk.clipboard() == "taken by the target")
        #expect(desk.log.contains("it was left alone"), "\(desk.log)")
    }

    /// A cell larger than one chunk goes by INCR: the restore waits for its last chunk.
    @Test func largeCellByIncrementalTransfer() throws {
        let desk = try Self.desk()
        // Over one 256 KiB chunk, and over the 400000 bytes Tk takes in one property.
        let big = String(repeating: "0123456789abcdef", count: 40_000)
        try desk.call("InsertRow", [s("t"), i(0), i(1), s(big)])
        try desk.ownClipboardElsewhere(Array("before".utf8))
        let field = try TextFieldProgram.tk(on: desk)
        #expect(try desk.paste("t", row: 1, timeoutMilliseconds: 10_000))
        let arrived = field.waitForText(big)
        #expect(arrived, "the entry holds \(field.text.count) characters")
        #expect(try desk.clipboard() == "before")
    }

    /// A clipboard manager reading every new owner's text proves no paste: the restore
    /// waits for the focused program, which fetches 300 ms after the key.
    @Test func clipboardManagerFetchesDoNotCount() throws {
        let desk = try Self.desk()
        try desk.ownClipboardElsewhere(Array("before".utf8))
        _ = try desk.start(
            "sh", ["-c", "while :; do xclip -selection clipboard -o > /dev/null 2>&1; sleep 0.01; done"])
        let field = try TextFieldProgram.tk(
            on: desk, onPaste: "r.after(300, lambda: e.insert('end', r.clipboard_get()))")
        #expect(try desk.paste("t", timeoutMilliseconds: DaemonProcess.pasteDeadlineMilliseconds))
        #expect(field.waitForText(Self.cell), "the entry holds \(field.text.debugDescription)")
        #expect(try desk.clipboard() == "before")
    }

    /// A window that never fetches: false after the timeout, and the clipboard put back all
    /// the same (for a secret too), so a later paste does not "restore" the snippet; the
    /// command line exits 1 with the daemon's reason.
    @Test func targetThatNeverFetches() throws {
        let desk = try Self.desk(config: "[paste_to_focus]\ntimeout_ms = 3000\n")
        _ = try TextFieldProgram.tk(on: desk, onPaste: "pass")
        try desk.ownClipboardElsewhere(Array("before".utf8))
        let started = MonotonicClock.milliseconds()
        #expect(try desk.paste("t", timeoutMilliseconds: 300) == false)
        #expect(MonotonicClock.milliseconds() - started >= 300)
        #expect(try desk.clipboard() == "before", "the clipboard was not put back after the timeout")
        #expect(try desk.paste("s", timeoutMilliseconds: 300) == false)
        #expect(try desk.clipboard() == "before", "the clipboard was not put back after the secret's timeout")
        let cli = try desk.cliptab(["copy", "t", "0:0", "--paste"])
        #expect(cli.termination == .exited(1))
        #expect(cli.errorText.contains("did not fetch the text within 3000 ms"), "\(cli.errorText)")
        #expect(try desk.clipboard() == "before")
        #expect(desk.log.contains("did not fetch the text within 300 ms"), "\(desk.log)")
    }

    /// The previous owner offers an image, HTML or a file list: every format comes back after
    /// the paste, byte for byte, for a pasted secret too.
    @Test func previousImageAndHTMLArePutBack() throws {
        let desk = try Self.desk()
        let field = try TextFieldProgram.tk(on: desk)
        let png: [UInt8] =
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D]
            + Array(repeating: 7, count: 300_000)
        try desk.ownClipboardElsewhere(png, target: "image/png")
        #expect(try desk.paste("t"))
        #expect(field.waitForText(Self.cell))
        #expect(
            try desk.run("xclip", ["-selection", "clipboard", "-t", "image/png", "-o"]).standardOutput == png)
        #expect(!desk.log.contains("nothing to restore"), "\(desk.log)")

        #expect(try desk.paste("s"))
        #expect(field.waitForText(Self.cell + "hunter2"))
        #expect(
            try desk.run("xclip", ["-selection", "clipboard", "-t", "image/png", "-o"]).standardOutput == png)

        let html = Array("<b>bold</b> and more".utf8)
        try desk.ownClipboardElsewhere(html, target: "text/html")
        #expect(try desk.paste("t"))
        #expect(field.waitForText(Self.cell + "hunter2" + Self.cell))
        #expect(
            try desk.run("xclip", ["-selection", "clipboard", "-t", "text/html", "-o"]).standardOutput == html
        )

        let files = Array("file:///tmp/a%20b.txt\r\nfile:///tmp/c.png\r\n".utf8)
        try desk.ownClipboardElsewhere(files, target: "text/uri-list")
        #expect(try desk.paste("t"))
        #expect(field.waitForText(Self.cell + "hunter2" + Self.cell + Self.cell))
        #expect(
            try desk.run("xclip", ["-selection", "clipboard", "-t", "text/uri-list", "-o"]).standardOutput
                == files)
    }

    /// Without XTEST: ClipboardUnavailable naming it, and the clipboard untouched.
    @Test func serverWithoutXTEST() throws {
        let desk = try Self.desk(xtest: false)
        try desk.ownClipboardElsewhere(Array("kept".utf8))
        do {
            _ = try desk.paste("t")
            Issue.record("PasteToFocus succeeded without XTEST")
        } catch let error as BusError {
            #expect(error.name == CliptabBus.errorPrefix + "ClipboardUnavailable")
            #expect(error.message.contains("XTEST"), "\(error.message)")
        }
        #expect(try desk.clipboard() == "kept")
    }

    /// Super and Shift still held from the shortcut do not reach the GTK entry (it would
    /// not paste on Super+Ctrl+V or Ctrl+Shift+V).
    @Test func heldModifiersDoNotReachTheTarget() throws {
        let desk = try Self.desk()
        try desk.ownClipboardElsewhere(Array("before".utf8))
        let field = try TextFieldProgram.gtk(on: desk)
        _ = try desk.run("xdotool", ["keydown", "super", "shift"])
        defer { _ = try? desk.run("xdotool", ["keyup", "super", "shift"]) }
        #expect(try desk.paste("t"))
        #expect(field.waitForText(Self.cell), "the GTK entry holds \(field.text.debugDescription)")
        #expect(try desk.clipboard() == "before")
    }

    /// `restore = false` leaves the pasted text; a custom key reaches the target.
    @Test func configuredKeysAndNoRestore() throws {
        let desk = try Self.desk(
            config: """
                [paste_to_focus]
                timeout_ms = \(DaemonProcess.pasteDeadlineMilliseconds)
                restore = false
                key = shift+Insert
                """)
        try desk.ownClipboardElsewhere(Array("before".utf8))
        let field = try TextFieldProgram.gtk(on: desk)
        #expect(try desk.paste("t"))
        #expect(field.waitForText(Self.cell), "the GTK entry holds \(field.text.debugDescription)")
        #expect(try desk.clipboard() == Self.cell)
    }
}
