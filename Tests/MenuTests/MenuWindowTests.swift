// SPDX-License-Identifier: MIT
import Glibc
import Posix
import TestSupport
import Testing

/// `cliptab menu` on a real Xvfb, driven by xdotool as a person would, with the clipboard
/// read by xclip and the screen by xwd.
@Suite(.serialized)
struct MenuWindowTests {
    /// Filter, open the row's actions, choose copy: the clipboard holds exactly the row's
    /// whole text (two lines and the newline at its end), and the grab is gone.
    @Test func filterChooseARowAndCopyItFromItsActions() throws {
        let fixture = try MenuFixture()
        try fixture.makeSampleTable()
        let (menu, _) = try fixture.openMenu("t")
        #expect(try !fixture.grabIsFree())
        try fixture.tool("xdotool", "type", "MULTI")
        try fixture.tool("xdotool", "key", "Tab")
        // The actions come in the daemon's order, copy first.
        try fixture.tool("xdotool", "key", "Return")
        #expect(fixture.exitCode(of: menu) == 0)
        #expect(try fixture.clipboard() == "multi\nline\n")
        #expect(try fixture.grabIsFree())
    }

    /// Escape after moving and typing closes the menu: exit 1, the table and the clipboard as
    /// they were, and the grab free.
    @Test func escapeChangesNothing() throws {
        let fixture = try MenuFixture()
        try fixture.makeSampleTable()
        let owner = try ChildProcess.spawn(
            "xclip", ["-selection", "clipboard", "-i", "-quiet"], environment: fixture.environment,
            stdin: .pipe,
            stdout: .null, stderr: .null)
        defer { owner.terminate() }
        try owner.write(Array("held by xclip".utf8))
        owner.closeStandardInput()
        let before = try fixture.cliptab("export", "t").outputText
        let (menu, _) = try fixture.openMenu("t")
        try fixture.tool("xdotool", "key", "Down", "Down", "Tab")
        try fixture.tool("xdotool", "type", "del")
        try fixture.tool("xdotool", "key", "Escape")
        #expect(fixture.exitCode(of: menu) == 1)
        #expect(try fixture.grabIsFree())
        #expect(try fixture.cliptab("export", "t").outputText == before)
        #expect(try fixture.clipboard() == "held by xclip")
    }

    /// A screenshot shows the window at the pointer, on the configured background, with the
    /// section header drawn in the title colour on its line and nothing on the empty lines.
    @Test func screenshotShowsTheSectionHeader() throws {
        let fixture = try MenuFixture()
        try fixture.makeSampleTable()
        try fixture.tool("xdotool", "mousemove", "40", "30")
        let (menu, window) = try fixture.openMenu("t")
        let frame = try fixture.geometry(of: window)
        #expect(frame.x == 40 && frame.y == 30)
        // Seven lines (two rows, header, three rows, footer) under the prompt line.
        let lineHeight = frame.height / 8
        #expect(lineHeight * 8 == frame.height && lineHeight >= 10)
        var shot = try fixture.screenshot()
        // The first frame may still be on its way: wait until the prompt line is drawn.
        let deadline = MonotonicClock.milliseconds() + 5000
        while Set(shot.pixels(x: frame.x, y: frame.y, width: frame.width, height: lineHeight)).count < 2
            && MonotonicClock.milliseconds() < deadline
        {
            usleep(50_000)
            shot = try fixture.screenshot()
        }
        #expect(shot.pixel(frame.x + frame.width - 1, frame.y + frame.height - 1) == MenuColours.background)
        let header = shot.pixels(
            x: frame.x, y: frame.y + 3 * lineHeight, width: frame.width, height: lineHeight)
        let drawn = header.filter { $0 != MenuColours.background }
        #expect(drawn.count > 50, "the header line has \(drawn.count) drawn pixels")
        let headerHasTitleColour = header.contains(MenuColours.title)
        #expect(headerHasTitleColour, "the header is drawn in the title colour")
        // A row line holds no title colour, and the screen outside the window is not ours.
        let row = shot.pixels(x: frame.x, y: frame.y + 4 * lineHeight, width: frame.width, height: lineHeight)
        let rowHasTitleColour = row.contains(MenuColours.title)
        let rowIsDrawn = row.contains { $0 != MenuColours.background }
        #expect(!rowHasTitleColour && rowIsDrawn)
        #expect(shot.pixel(frame.x + frame.width + 5, frame.y + 5) != MenuColours.background)
        try fixture.tool("xdotool", "key", "Escape")
        #expect(fixture.exitCode(of: menu) == 1)
    }

    /// SIGTERM ends the menu and frees the grab.
    @Test func sigtermReleasesTheGrab() throws {
        let fixture = try MenuFixture()
        try fixture.makeSampleTable()
        let (menu, _) = try fixture.openMenu("t")
        #expect(try !fixture.grabIsFree())
        menu.signal(SIGTERM)
        #expect(fixture.exitCode(of: menu) == 143)
        #expect(try fixture.grabIsFree())
    }

    /// When the daemon goes away while the menu is open, the menu shows why and closes by
    /// itself (status 69), freeing the grab.
    @Test func daemonGoneIsShownThenTheMenuCloses() throws {
        let fixture = try MenuFixture()
        try fixture.makeSampleTable()
        let (menu, window) = try fixture.openMenu("t")
        let frame = try fixture.geometry(of: window)
        fixture.daemon.signal(SIGKILL)
        _ = fixture.daemon.waitForExit(timeoutMilliseconds: 5000)
        // The message replaces the prompt, on the chosen row's colour.
        #expect(try messageShows(fixture, menu, frame), "the message line was not drawn")
        #expect(fixture.exitCode(of: menu) == 69)
        #expect(try fixture.grabIsFree())
    }

    /// A daemon that stops answering: the call the key needs gives up after the timeout,
    /// the menu says so and closes (status 69), and the grab is free.
    @Test func hungDaemonTimesOutThenTheMenuCloses() throws {
        let fixture = try MenuFixture()
        try fixture.makeSampleTable()
        let (menu, window) = try fixture.openMenu("--timeout", "1", "t")
        let frame = try fixture.geometry(of: window)
        fixture.daemon.signal(SIGSTOP)
        defer { fixture.daemon.signal(SIGCONT) }
        try fixture.tool("xdotool", "key", "Tab")
        #expect(try messageShows(fixture, menu, frame), "the message line was not drawn")
        #expect(fixture.exitCode(of: menu) == 69)
        #expect(try fixture.grabIsFree())
    }

    /// Whether the message line (the chosen row's colour at the prompt's right end) shows
    /// within 5 s while `menu` runs.
    func messageShows(
        _ fixture: MenuFixture, _ menu: ChildProcess, _ frame: (x: Int, y: Int, width: Int, height: Int)
    ) throws -> Bool {
        let deadline = MonotonicClock.milliseconds() + 5000
        while MonotonicClock.milliseconds() < deadline && menu.isRunning {
            if try fixture.screenshot().pixel(frame.x + frame.width - 2, frame.y + 1) == 0x30_60_90 {
                return true
            }
            usleep(50_000)
        }
        return false
    }

    /// With no table the tables come first; choosing one opens it; its actions move a row
    /// to the end of another section and edit a row's text in the one-line input.
    @Test func tablesFirstThenMoveAndEdit() throws {
        let fixture = try MenuFixture()
        try fixture.makeSampleTable()
        try fixture.cliptab("create", "other")
        var (menu, _) = try fixture.openMenu()
        try fixture.tool("xdotool", "type", "t")
        try fixture.tool("xdotool", "key", "Down")
        // "other" and "t" both contain a t; the second is the table t.
        try fixture.tool("xdotool", "key", "Return")
        try fixture.tool("xdotool", "type", "alpha")
        try fixture.tool("xdotool", "key", "Right")
        try fixture.tool("xdotool", "type", "move")
        try fixture.tool("xdotool", "key", "Return")
        // The destinations end with the end of the last section.
        try fixture.tool("xdotool", "key", "End", "Return")
        #expect(fixture.exitCode(of: menu) == 0)
        #expect(try fixture.cliptab("get", "t", "1:-1").outputText == "alpha")
        #expect(try fixture.cliptab("get", "t", "0:0").outputText == "beta two")
        #expect(try fixture.grabIsFree())

        (menu, _) = try fixture.openMenu("t")
        try fixture.tool("xdotool", "type", "beta")
        try fixture.tool("xdotool", "key", "Tab")
        try fixture.tool("xdotool", "type", "edit")
        try fixture.tool("xdotool", "key", "Return", "BackSpace", "BackSpace", "BackSpace")
        try fixture.tool("xdotool", "type", "three")
        try fixture.tool("xdotool", "key", "Return")
        #expect(fixture.exitCode(of: menu) == 0)
        #expect(try fixture.cliptab("get", "t", "0:0").outputText == "beta three")
        #expect(try fixture.grabIsFree())
    }
}

/// Everything left to read on `descriptor` (the process has ended).
func readAll(_ descriptor: Int32) -> [UInt8] {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count <= 0 { return bytes }
        bytes += chunk[..<count]
    }
}
