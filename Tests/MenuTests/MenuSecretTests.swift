// SPDX-License-Identifier: MIT
import DBus
import Glibc
import Posix
import TestSupport
import Testing

/// `cliptab menu` on a secret table, on a real Xvfb: its rows are drawn as the mask beside
/// their names, never as their text, and they are found by name only.
@Suite(.serialized)
struct MenuSecretTests {
    /// Makes `table` with a row named "mail" and an unnamed one, holding `texts`.
    func makeTable(_ fixture: MenuFixture, _ table: String, _ texts: (String, String)) throws {
        #expect(try fixture.cliptab("create", table).exitCode == 0)
        #expect(try fixture.cliptab("add", table, "--name", "mail", texts.0).exitCode == 0)
        #expect(try fixture.cliptab("add", table, texts.1).exitCode == 0)
    }

    /// The pixels of the menu's lines under the prompt, opened on `table` at the same place
    /// (the prompt, which names the table, is left out).
    func rowPixels(_ fixture: MenuFixture, _ table: String) throws -> [UInt32] {
        try fixture.tool("xdotool", "mousemove", "40", "30")
        let (menu, window) = try fixture.openMenu(table)
        let frame = try fixture.geometry(of: window)
        // Two rows: the window has room for three and the prompt.
        let lineHeight = frame.height / 4
        var shot = try fixture.screenshot()
        // The first frame may still be on its way: wait until the prompt line is drawn.
        let deadline = MonotonicClock.milliseconds() + 5000
        while Set(shot.pixels(x: frame.x, y: frame.y, width: frame.width, height: lineHeight)).count < 2
            && MonotonicClock.milliseconds() < deadline
        {
            usleep(50_000)
            shot = try fixture.screenshot()
        }
        let rows = shot.pixels(
            x: frame.x, y: frame.y + lineHeight, width: frame.width, height: frame.height - lineHeight)
        try fixture.tool("xdotool", "key", "Escape")
        #expect(fixture.exitCode(of: menu) == 1)
        return rows
    }

    /// The secret table's rows look exactly like a plain table whose texts are the mask (and
    /// not like the same texts in a plain table).
    @Test func secretRowsAreDrawnAsTheMaskBesideTheirNames() throws {
        let fixture = try MenuFixture()
        let texts = ("hunter2 mail WWWWWWWW", "hunter2 bank WWWWWWWW")
        try makeTable(fixture, "s", texts)
        try fixture.session.call("SetSecret", [.string("s"), .boolean(true)])
        try makeTable(fixture, "m", ("••••••••", "••••••••"))
        try makeTable(fixture, "p", texts)
        let secret = try rowPixels(fixture, "s")
        #expect(secret.contains { $0 != MenuColours.background }, "the rows are drawn")
        #expect(secret == (try rowPixels(fixture, "m")), "the secret rows are not drawn as the mask")
        #expect(secret != (try rowPixels(fixture, "p")))
    }

    /// Typing the secret's text finds nothing; typing the name finds the row, and Enter
    /// copies its whole text; editing it starts from an empty line (it is replaced, never
    /// shown).
    @Test func secretRowsAreFoundByNameOnlyAndEditedFromEmpty() throws {
        let fixture = try MenuFixture()
        try makeTable(fixture, "s", ("hunter2 mail", "hunter2 bank"))
        try fixture.session.call("SetSecret", [.string("s"), .boolean(true)])
        var (menu, _) = try fixture.openMenu("s")
        try fixture.tool("xdotool", "type", "hunter")
        // Nothing matches: Enter does nothing, Escape closes.
        try fixture.tool("xdotool", "key", "Return", "Escape")
        #expect(fixture.exitCode(of: menu) == 1)
        #expect((try? fixture.clipboard()) != "hunter2 mail")

        (menu, _) = try fixture.openMenu("s")
        try fixture.tool("xdotool", "type", "mail")
        try fixture.tool("xdotool", "key", "Return")
        #expect(fixture.exitCode(of: menu) == 0)
        #expect(try fixture.clipboard() == "hunter2 mail")

        (menu, _) = try fixture.openMenu("s")
        try fixture.tool("xdotool", "type", "mail")
        try fixture.tool("xdotool", "key", "Tab")
        try fixture.tool("xdotool", "type", "edit")
        try fixture.tool("xdotool", "key", "Return")
        try fixture.tool("xdotool", "type", "new")
        try fixture.tool("xdotool", "key", "Return")
        #expect(fixture.exitCode(of: menu) == 0)
        #expect(try fixture.cliptab("get", "s", "mail").outputText == "new")
        #expect(try fixture.grabIsFree())
    }
}
