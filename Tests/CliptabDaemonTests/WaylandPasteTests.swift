// SPDX-License-Identifier: MIT
import CliptabContract
import DBus
import DaemonTestSupport
import Foundation
import Glibc
import Posix
import TestSupport
import Testing

/// `PasteToFocus` on a headless sway: the chord through cliptabd's virtual keyboard into a
/// GTK 3 entry on Wayland and into foot, through XTEST into an X11 program under XWayland;
/// the text arriving once, the clipboard put back, a clipboard manager reading along.
@Suite(.serialized)
struct WaylandPasteTests {
    /// A sway session with XWayland, a cliptabd with `WAYLAND_DISPLAY` and XWayland's
    /// `DISPLAY`, table "t".
    final class Desk {
        let sway: HeadlessSway
        let daemon: DaemonProcess
        let xDisplay: String

        init() throws {
            sway = try HeadlessSway(xwayland: true)
            xDisplay = try sway.xwaylandDisplay()
            daemon = try DaemonProcess(
                environment: ["WAYLAND_DISPLAY": sway.socketPath, "DISPLAY": xDisplay],
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
            let reply = try daemon.call(
                "PasteToFocusWithReason", [s("t"), i(0), i(row), .uint32(3000)], timeout: 20_000)
            guard case .boolean(let delivered)? = reply.first, case .string(let reason)? = reply.last else {
                throw FixtureError("PasteToFocusWithReason answered \(reply)")
            }
            return (delivered, reason)
        }

        /// The clipboard's text as wl-paste reads it (nil: nothing offered).
        func clipboard() throws -> String? {
            let result = try sway.paste()
            return result.termination == .exited(0) ? result.outputText : nil
        }

        /// A file in the session's home, written by the session's programs.
        func file(_ name: String) -> String { "\(sway.homeDirectory)/\(name)" }

        /// Starts `command` in the session and waits until it wrote `readyFile`.
        func start(
            _ command: String, _ arguments: [String], environment: [String: String] = [:], readyFile: String
        ) throws -> ChildProcess {
            let child = try sway.spawn(
                command, arguments, environment: environment, stdout: .null, stderr: .null)
            try waitFor("\(command) to start", milliseconds: 20_000) {
                guard child.isRunning else { throw FixtureError("\(command) ended early") }
                return FileManager.default.fileExists(atPath: readyFile)
            }
            return child
        }

        /// A GTK 3 entry on Wayland (`GDK_BACKEND=wayland`) that writes its text to `out`
        /// after every change.
        func gtkEntry(_ out: String) throws -> ChildProcess {
            let script = """
                import sys, os, gi
                gi.require_version('Gtk', '3.0')
                from gi.repository import Gtk
                out = sys.argv[1]
                w = Gtk.Window(title='paste target')
                e = Gtk.Entry()
                w.add(e)
                def changed(entry):
                    with open(out + '.tmp', 'w', encoding='utf-8') as f:
                        f.write(entry.get_text())
                    os.replace(out + '.tmp', out)
                e.connect('changed', changed)
                w.show_all()
                e.grab_focus()
                changed(e)
                Gtk.main()
                """
            guard
                let python = python(
                    running: "import gi; gi.require_version('Gtk', '3.0'); from gi.repository import Gtk")
            else { throw FixtureError("python3 with GTK 3 is missing (python3-gi, gir1.2-gtk-3.0)") }
            return try start(
                python, ["-c", script, out], environment: ["GDK_BACKEND": "wayland"], readyFile: out)
        }

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
            "foot", ["sh", "-c", "stty raw -echo; : > \(typed); exec cat > \(typed)"], readyFile: typed)
        defer { foot.terminate(graceMilliseconds: 1000) }
        // foot is activated when it maps; the chord follows its app id.
        let terminalRow = try desk.add("into foot")
        let inFoot = try desk.paste(terminalRow)
        #expect(inFoot.delivered, "\(inFoot.reason)\n\(desk.daemon.log)")
        try waitFor("foot's text") { desk.contents(typed) == "into foot" }
        #expect(try desk.clipboard() == "someone else's")
    }
}
