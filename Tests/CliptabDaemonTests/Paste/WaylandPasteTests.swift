// SPDX-License-Identifier: MIT
import CliptabClient
import CliptabContract
import DBus
import DaemonTestSupport
import Foundation
import Glibc
import Posix
import TestSupport
import Testing
import WaylandDesktop

/// `PasteToFocus` on a headless sway: the chord through cliptabd's virtual keyboard into a
/// GTK 3 entry on Wayland and into foot, through XTEST into an X11 program under XWayland;
/// the text arriving once, the clipboard put back, a clipboard manager reading along.
@Suite(.serialized)
struct WaylandPasteTests {
    /// A sway session with XWayland, a cliptabd with `WAYLAND_DISPLAY` and XWayland's
    /// `DISPLAY`, table "t".
    final class Desk {
        let sway: HeadlessCompositor
        let daemon: DaemonProcess
        let xDisplay: String

        /// The person's own keyboard, when one stands in for theirs (`personLayout`).
        private var person: (connection: WaylandSelectionService, keyboard: VirtualKeyboard)?

        /// Starts the session and cliptabd in it.
        ///
        /// `xtest` false: cliptabd gets no `DISPLAY`, so it has no XTEST. `personLayout`: a
        /// keyboard of that layout is the seat's before cliptabd starts, as a person's
        /// keyboard that typed last.
        init(xtest: Bool = true, personLayout: KeymapNames? = nil) throws {
            sway = try HeadlessCompositor(.sway(xwayland: true))
            xDisplay = try sway.xwaylandDisplay()
            if let personLayout {
                let connection = try WaylandSelectionService.connect(display: sway.socketPath)
                let keyboard = try connection.makeVirtualKeyboard(keymap: try WaylandKeymap(personLayout))
                _ = try keyboard.type(0xffe1, modifierKeysyms: [])
                connection.processEvents(now: MonotonicClock.milliseconds())
                person = (connection, keyboard)
            }
            // cliptabd runs as the test's user (root), the session as another.
            try sway.allowXClients(of: SessionUser.currentName, display: xDisplay)
            daemon = try DaemonProcess(
                config: "[log]\nlevel = debug\n",
                environment: ["WAYLAND_DISPLAY": sway.socketPath].merging(xtest ? ["DISPLAY": xDisplay] : [:])
                {
                    $1
                },
                homePrefix: "cliptab-wayland-paste")
            try daemon.call("CreateTable", [s("t")])
        }

        deinit { daemon.stop() }

        /// Appends `text` to table "t"; returns its row index.
        func add(_ text: String) throws -> Int32 {
            try daemon.call("InsertRow", [s("t"), i(0), i(-1), s(text)])
            let rows = try daemon.call("GetRows", [s("t"), i(0), .uint32(0), .uint32(0)])
            guard case .array(_, let list)? = rows.first else { return 0 }
            return Int32(list.count - 1)
        }

        /// `PasteToFocusWithReason` of row `row`: delivered and why not.
        func paste(_ row: Int32) throws -> (delivered: Bool, reason: String) {
            let outcome = try daemon.cliptab(timeout: 60_000).pasteToFocusWithReason(
                TableCell("t", section: 0, row: row), timeout: DaemonProcess.pasteDeadlineMilliseconds)
            return (outcome.delivered, outcome.reason)
        }

        /// The clipboard's text as wl-paste reads it (nil: nothing offered).
        func clipboard() throws -> String? {
            let result = try sway.paste()
            return result.termination == .exited(0) ? result.outputText : nil
        }

        /// A file in the session's home, written by the session's programs.
        func file(_ name: String) -> String { "\(sway.homeDirectory)/\(name)" }

        /// Starts `command` in the session and waits until it wrote `readyFile` and its
        /// window (`appID`) has the focus.
        func start(
            _ command: String, _ arguments: [String], environment: [String: String] = [:], readyFile: String,
            appID: String
        ) throws -> ChildProcess {
            let child = try sway.spawn(
                command, arguments, environment: environment, stdout: .null, stderr: .null)
            try waitFor("\(command) to start", milliseconds: 20_000) {
                guard child.isRunning else { throw FixtureError("\(command) ended early") }
                return try FileManager.default.fileExists(atPath: readyFile) && sway.focusedAppID() == appID
            }
            return child
        }

        /// A GTK 3 entry on Wayland (`GDK_BACKEND=wayland`) that writes its text to `out`
        /// after every change.
        func gtkEntry(_ out: String) throws -> ChildProcess {
            guard
                let python = python(
                    running: "import gi; gi.require_version('Gtk', '3.0'); from gi.repository import Gtk")
            else { throw FixtureError("python3 with GTK 3 is missing (python3-gi, gir1.2-gtk-3.0)") }
            return try start(
                python,
                ["-c", HelperPrograms.source("gtk_entry.py"), out, "paste target", "none", "paste-target"],
                environment: ["GDK_BACKEND": "wayland"], readyFile: out,
                appID: "paste-target")
        }

        /// A Tk entry under XWayland (WM_CLASS `xPasteTarget`, `Xpastetarget`) that writes
        /// its text to `out` after every change.
        func tkEntry(_ out: String) throws -> ChildProcess {
            return try start(
                Self.systemPython, ["-c", HelperPrograms.source("tk_entry.py"), out, "XPasteTarget"],
                environment: ["DISPLAY": xDisplay], readyFile: out,
                appID: "Xpastetarget")
        }

        /// Pastes a new row of `text` into a Tk entry under XWayland and waits until the entry
        /// holds it; returns the entry's program, to be stopped after.
        func pasteIntoTkEntry(_ text: String) throws -> ChildProcess {
            let out = file("tk.txt")
            let tk = try tkEntry(out)
            let result = try paste(try add(text))
            #expect(result.delivered, "\(result.reason)\n\(daemon.log)")
            try waitFor("the X11 entry's text") { contents(out) == text }
            return tk
        }

        /// The X keycodes of the letters `letters` in XWayland's keymap, as an X11 client
        /// sees them (0: no key types it), space-separated.
        func xKeycodes(_ letters: String) throws -> String {
            let script =
                xlibPythonPrelude + """
                    d = x.XOpenDisplay(None)
                    x.XKeysymToKeycode.restype = ctypes.c_ubyte; x.XKeysymToKeycode.argtypes = [P, L]
                    print(' '.join(str(x.XKeysymToKeycode(d, ord(c))) for c in sys.argv[1]))
                    """
            let result = try sway.run(
                Self.systemPython, ["-c", script, letters], environment: ["DISPLAY": xDisplay])
            guard result.termination == .exited(0) else {
                throw FixtureError("the keymap query failed: \(result.errorText)")
            }
            return result.outputText.trimmingCharacters(in: .whitespacesAndNewlines)
        }

        /// The distribution's python3 (with Tk and GTK), which the session's user can run.
        static let systemPython = "/usr/bin/python3"

        /// What `path` holds now ("" when it does not exist).
        func contents(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
    }

    /// Into a GTK entry on Wayland and into foot (Ctrl+Shift+V by its app id), each text
    /// arrives exactly once and the other program's text is back on the clipboard after.
    @Test func gtkEntryAndFoot() throws {
        let desk = try Desk()
        let out = desk.file("gtk.txt")
        let gtk = try desk.gtkEntry(out)
        defer { gtk.terminate(graceMilliseconds: 1000) }
        try desk.sway.copy(Array("someone else's".utf8))
        let row = try desk.add("into gtk ✓")
        let result = try desk.paste(row)
        #expect(result.delivered, "\(result.reason)\n\(desk.daemon.log)")
        try waitFor("the entry's text") { desk.contents(out) == "into gtk ✓" }
        #expect(try desk.clipboard() == "someone else's")

        let typed = desk.file("foot.txt")
        let foot = try desk.start(
            "foot", ["sh", "-c", "stty raw -echo; : > \(typed); exec cat > \(typed)"], readyFile: typed,
            appID: "foot")
        defer { foot.terminate(graceMilliseconds: 1000) }
        // foot has the focus once it maps; the chord follows its app id.
        let terminalRow = try desk.add("into foot")
        let inFoot = try desk.paste(terminalRow)
        #expect(inFoot.delivered, "\(inFoot.reason)\n\(desk.daemon.log)")
        #expect(desk.daemon.log.contains("through the virtual keyboard to the window [\"foot\"]"))
        #expect(throws: Never.self) {
            try waitFor("foot's text") { desk.contents(typed) == "into foot" }
        }
        #expect(desk.contents(typed) == "into foot", "gtk has \(desk.contents(out))\n\(desk.daemon.log)")
        #expect(try desk.clipboard() == "someone else's")
    }

    /// 20 pastes into a GTK entry on Wayland while a clipboard manager reads every selection.
    ///
    /// Every other one has another program's text (wl-copy) on the clipboard before, and a
    /// clipboard manager (`wl-paste --watch`) reads every selection: each text lands exactly
    /// once, the clipboard holds what it held before after each, and the manager's early
    /// reads never count as the paste. Then an
    /// X11 entry under XWayland gets a paste through XTEST, and XWayland's keymap is still the
    /// whole US layout (`v` on its key, every letter there).
    @Test func runOfPastesWithAManagerThenX11() throws {
        let desk = try Desk()
        let out = desk.file("gtk.txt")
        let gtk = try desk.gtkEntry(out)
        defer { gtk.terminate(graceMilliseconds: 1000) }
        let seen = desk.file("manager.log")
        let manager = try desk.sway.spawn(
            "wl-paste", ["--watch", "sh", "-c", "cat >/dev/null; echo x >> \(seen)"], stdout: .null,
            stderr: .null)
        defer { manager.terminate(graceMilliseconds: 1000) }
        try desk.sway.copy(Array("other 0".utf8))
        var expectedField = ""
        var expectedClipboard = "other 0"
        for index in 0..<20 {
            if index % 2 == 1 {
                expectedClipboard = "other \(index)"
                try desk.sway.copy(Array(expectedClipboard.utf8))
            }
            let text = "p\(index);"
            let row = try desk.add(text)
            let result = try desk.paste(row)
            #expect(result.delivered, "paste \(index): \(result.reason)\n\(desk.daemon.log)")
            expectedField += text
            try waitFor("paste \(index) in the entry") { desk.contents(out) == expectedField }
            #expect(try desk.clipboard() == expectedClipboard, "after paste \(index)")
        }
        #expect(desk.contents(out) == expectedField)
        // The manager read the pastes' selections too (and the restores, and wl-copy's).
        #expect(desk.contents(seen).split(separator: "\n").count >= 20)

        let tkOut = desk.file("tk.txt")
        let tk = try desk.tkEntry(tkOut)
        defer { tk.terminate(graceMilliseconds: 1000) }
        let xRow = try desk.add("into x11")
        let intoX11 = try desk.paste(xRow)
        #expect(intoX11.delivered, "\(intoX11.reason)\n\(desk.daemon.log)")
        try waitFor("the X11 entry's text") { desk.contents(tkOut) == "into x11" }
        #expect(
            desk.daemon.log.contains(
                "paste chord through XTEST to the X11 window [\"xPasteTarget\", \"Xpastetarget\"]"),
            "\(desk.daemon.log)")
        #expect(desk.daemon.log.contains("through the virtual keyboard to the window [\"paste-target\"]"))
        #expect(try desk.clipboard() == expectedClipboard)
    }

    /// Where cliptabd has no X11 display (a user service that was not given `DISPLAY`), the
    /// virtual keyboard types into X11 windows too: XWayland then takes its keymap, which
    /// must be the whole layout (every letter on its US key), not just the chord's keys.
    @Test func virtualKeyboardIntoX11KeepsTheKeymap() throws {
        let desk = try Desk(xtest: false)
        let tk = try desk.pasteIntoTkEntry("typed by the virtual keyboard")
        defer { tk.terminate(graceMilliseconds: 1000) }
        #expect(desk.daemon.log.contains("through the virtual keyboard to the window"))
        #expect(
            try desk.xKeycodes("abcdefghijklmnopqrstuvwxyz")
                == "38 56 54 40 26 41 42 43 31 44 45 46 58 57 32 33 24 27 39 28 30 55 25 53 29 52")
    }

    /// cliptabd's keyboard carries the seat's keymap, the person's layout (here Dvorak), not
    /// a default one: after its paste into an X11 window, XWayland's letters are still on the
    /// person's keys (a US keymap would have moved 24 of them until the person typed again).
    @Test func virtualKeyboardTakesThePersonsLayout() throws {
        let layout = KeymapNames(layout: "us", variant: "dvorak")
        let desk = try Desk(xtest: false, personLayout: layout)
        #expect(desk.daemon.log.contains("virtual keyboard with the seat's keymap"), "\(desk.daemon.log)")
        let tk = try desk.pasteIntoTkEntry("typed on the person's layout")
        defer { tk.terminate(graceMilliseconds: 1000) }
        // The X keycode of each letter on the person's layout (evdev code + 8).
        let dvorak = try WaylandKeymap(layout)
        let expected = try "abcdefghijklmnopqrstuvwxyz".unicodeScalars.map {
            String(try dvorak.place(of: $0.value).code + 8)
        }
        #expect(expected[21] == "60", "v is on the key of US '.' in Dvorak")
        #expect(try desk.xKeycodes("abcdefghijklmnopqrstuvwxyz") == expected.joined(separator: " "))
    }
}
