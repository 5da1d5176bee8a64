// SPDX-License-Identifier: MIT
import DBus
import Foundation
import Posix
import TestSupport
import Testing

/// The menu's `fill` action on Xvfb: a row's actions offer it where its table allows
/// `copy`, and choosing it pastes that row and those after it, Tab between them, into the
/// window focused before the menu (a GTK form of two entries).
@Suite(.serialized)
struct MenuFillTests {
    @Test func fillFromARowsActions() throws {
        let fixture = try MenuFixture()
        #expect(try fixture.cliptab("create", "form").exitCode == 0)
        try fixture.cliptab("add", "form", "before it", "Ada", "London")
        let owner = try ChildProcess.spawn(
            "xclip", ["-selection", "clipboard", "-i", "-quiet"], environment: fixture.environment,
            stdin: .pipe,
            stdout: .null, stderr: .null)
        defer { owner.terminate() }
        try owner.write(Array("held by xclip".utf8))
        owner.closeStandardInput()

        let out = fixture.data.appending("form.txt")
        // GTK, whose entries take the focus back when the popup's grab ends (Tk's did not here).
        let script = """
            import sys, os, gi
            gi.require_version('Gtk', '3.0')
            gi.require_version('GdkX11', '3.0')
            from gi.repository import Gtk, GdkX11
            out = sys.argv[1]
            w = Gtk.Window(title='fill form')
            box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL)
            w.add(box)
            entries = [Gtk.Entry(), Gtk.Entry()]
            def changed(*args):
                with open(out + '.tmp', 'w', encoding='utf-8') as f:
                    f.write('|'.join(e.get_text() for e in entries))
                os.replace(out + '.tmp', out)
            for e in entries:
                box.pack_start(e, False, False, 0)
                e.connect('changed', changed)
            w.show_all()
            entries[0].grab_focus()
            print(hex(w.get_window().get_xid()), flush=True)
            Gtk.main()
            """
        let form = try ChildProcess.spawn(
            "/usr/bin/python3", ["-c", script, out],
            environment: fixture.environment.merging(["NO_AT_BRIDGE": "1"]) { $1 },
            stdout: .pipe, stderr: .null)
        defer { form.terminate(graceMilliseconds: 500) }
        let window = try #require(form.readLine(timeoutMilliseconds: 20_000))
        try #require(fixture.session.virtualDisplay).focus(window, environment: fixture.environment)

        let (menu, _) = try fixture.openMenu("form")
        // The popup grabs the keyboard once its first frame is drawn: keys before go to the form.
        #expect(eventually(within: 10_000, every: 20) { (try? fixture.grabIsFree()) == false })
        try fixture.tool("xdotool", "type", "Ada")
        try fixture.tool("xdotool", "key", "Tab")
        try fixture.tool("xdotool", "type", "fill")
        try fixture.tool("xdotool", "key", "Return")
        #expect(fixture.exitCode(of: menu) == 0, "\(fixture.session.log)")
        _ = eventually(within: 10_000, every: 5) {
            (try? String(contentsOfFile: out, encoding: .utf8)) == "Ada|London"
        }
        #expect((try? String(contentsOfFile: out, encoding: .utf8)) == "Ada|London")
        #expect(try fixture.clipboard() == "held by xclip")
        #expect(try fixture.grabIsFree())

        // A table that does not allow copy offers no fill.
        try fixture.cliptab("create", "locked")
        try fixture.cliptab("add", "locked", "kept")
        try fixture.session.call(
            "SetAllowedActions", [.string("locked"), .array(elementSignature: "s", [.string("delete")])])
        let (second, _) = try fixture.openMenu("locked")
        #expect(eventually(within: 10_000, every: 20) { (try? fixture.grabIsFree()) == false })
        try fixture.tool("xdotool", "key", "Tab")
        try fixture.tool("xdotool", "type", "fill")
        // Nothing matches "fill": Return chooses nothing; Escape goes back, then closes.
        try fixture.tool("xdotool", "key", "Return")
        try fixture.tool("xdotool", "key", "Escape", "Escape")
        #expect(fixture.exitCode(of: second) == 1)
        #expect((try? String(contentsOfFile: out, encoding: .utf8)) == "Ada|London")
    }
}
