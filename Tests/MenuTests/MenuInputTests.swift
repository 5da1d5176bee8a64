// SPDX-License-Identifier: MIT
import Glibc
import Posix
import TestSupport
import Testing

/// The popup's placement, its size under `Xft.dpi`, the mouse, and Enter's default action.
@Suite(.serialized)
struct MenuInputTests {
    /// Near the bottom-right corner the popup opens left and up, inside the screen (640×480).
    @Test func opensLeftAndUpNearTheCorner() throws {
        let fixture = try MenuFixture()
        try fixture.makeSampleTable()
        try fixture.tool("xdotool", "mousemove", "630", "470")
        let (menu, window) = try fixture.openMenu("t")
        let frame = try fixture.geometry(of: window)
        #expect(frame.x + frame.width <= 640 && frame.y + frame.height <= 480, "\(frame)")
        #expect(frame.x + frame.width == 630 && frame.y + frame.height == 470, "\(frame)")
        try fixture.tool("xdotool", "key", "Escape")
        #expect(fixture.exitCode(of: menu) == 1)
    }

    /// `Xft.dpi: 192` doubles the font's pixel size, and the window grows with it.
    @Test func hiDPIFromXftDpi() throws {
        let fixture = try MenuFixture()
        try fixture.makeSampleTable()
        try fixture.tool("xdotool", "mousemove", "0", "0")
        var heights: [Int] = []
        for dpi in [96, 192] {
            try fixture.tool(
                "xprop", "-root", "-f", "RESOURCE_MANAGER", "8s", "-set", "RESOURCE_MANAGER",
                "Xft.dpi:\t\(dpi)\n")
            let (menu, window) = try fixture.openMenu("t")
            heights.append(try fixture.geometry(of: window).height)
            try fixture.tool("xdotool", "key", "Escape")
            #expect(fixture.exitCode(of: menu) == 1)
        }
        let ratio = Double(heights[1]) / Double(heights[0])
        #expect(ratio > 1.8 && ratio < 2.2, "heights \(heights)")
    }

    /// Hovering moves the choice and a click chooses it (Enter's action: copy here).
    @Test func hoverAndClickChooseARow() throws {
        let fixture = try MenuFixture()
        try fixture.makeSampleTable()
        try fixture.tool("xdotool", "mousemove", "10", "10")
        let (menu, window) = try fixture.openMenu("t")
        let frame = try fixture.geometry(of: window)
        let lineHeight = frame.height / 8
        // Lines under the prompt: alpha, beta two, Shell, ls -la, git status, ...
        let y = frame.y + 5 * lineHeight + lineHeight / 2
        try fixture.tool("xdotool", "mousemove", "\(frame.x + 40)", "\(y)")
        try fixture.tool("xdotool", "click", "1")
        #expect(fixture.exitCode(of: menu) == 0)
        #expect(try fixture.clipboard() == "git status")
        #expect(try fixture.grabIsFree())
    }

    /// A click outside the window closes the menu like Escape, the grab released.
    @Test func clickOutsideCloses() throws {
        let fixture = try MenuFixture()
        try fixture.makeSampleTable()
        try fixture.tool("xdotool", "mousemove", "10", "10")
        let (menu, _) = try fixture.openMenu("t")
        try fixture.tool("xdotool", "mousemove", "630", "470", "click", "1")
        #expect(fixture.exitCode(of: menu) == 1)
        #expect(try fixture.grabIsFree())
    }

    /// With `enter = paste`, Enter hands the row to the daemon to paste.
    ///
    /// A daemon that cannot paste copies it instead; either way the clipboard then holds
    /// the row (an unfetched paste leaves its text on the clipboard).
    @Test func enterPastesOrCopies() throws {
        let fixture = try MenuFixture(enter: "paste")
        try fixture.makeSampleTable()
        let (menu, _) = try fixture.openMenu("t")
        try fixture.tool("xdotool", "key", "Down", "Return")
        #expect(fixture.exitCode(of: menu) == 0)
        #expect(try fixture.clipboard() == "beta two")
        #expect(try fixture.grabIsFree())
    }

    /// A dead key and the key after it type one character through the input method, which
    /// opens at the first key when that comes before it was opened: "r", dead acute, "e",
    /// "s" filter for "rés" (without compose the filter would be "res" and Enter would copy
    /// "resume").
    @Test func deadKeyComposesWithTheNextKey() throws {
        let fixture = try MenuFixture()
        #expect(try fixture.cliptab("create", "t").exitCode == 0)
        try fixture.cliptab("add", "t", "resume", "résumé")
        // The dead key is given a key of its own first, as a user's layout has it: xdotool
        // would otherwise lend it a spare key and take that back as soon as it is typed,
        // sometimes before the popup has looked the key up.
        try fixture.tool("xmodmap", "-e", "keycode 211 = dead_acute")
        let (menu, _) = try fixture.openMenu("t")
        try fixture.tool("xdotool", "key", "r", "dead_acute", "e", "s", "Return")
        #expect(fixture.exitCode(of: menu) == 0)
        #expect(try fixture.clipboard() == "résumé")
    }

    /// A 100,000-row table opens, and End shows its last row.
    @Test func largeTableOpensAndEndReachesTheLastRow() throws {
        let fixture = try MenuFixture()
        try fixture.cliptab("create", "big")
        let lines = (0..<100_000).map { "row \($0)" }.joined(separator: "\n") + "\n"
        #expect(try fixture.cliptab("import", "big", "-", "--format", "lines", input: lines).exitCode == 0)
        let (menu, _) = try fixture.openMenu("big")
        try fixture.tool("xdotool", "key", "End", "Tab", "Return")
        #expect(fixture.exitCode(of: menu) == 0)
        #expect(try fixture.clipboard() == "row 99999")
    }
}
