// SPDX-License-Identifier: MIT
import DBus
import Foundation
import Posix
import TestSupport
import Testing

/// The menu's `fill` action on Xvfb: a row's actions offer it where its table allows
/// `copy`, and choosing it pastes that row and those after it, Tab between them, into the
/// window focused before the menu (a GTK form of three entries).
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

        let out = fixture.data.appending("form.json")
        // GTK's form (`gtk_form.py`), whose entries take the focus back when the popup's grab
        // ends (Tk's did not here).
        let form = try ChildProcess.spawn(
            "/usr/bin/python3", ["-c", HelperPrograms.source("gtk_form.py"), out, "-1", "xid"],
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
        // The row and the one after it, Tab between: the form's third entry stays empty.
        let filled = ["Ada", "London", ""]
        _ = eventually(within: 10_000, every: 5) { GtkForm.read(out)?.entries == filled }
        #expect(GtkForm.read(out)?.entries == filled)
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
        #expect(GtkForm.read(out)?.entries == filled)
    }
}
