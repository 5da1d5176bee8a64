// SPDX-License-Identifier: MIT
import Posix
import TestSupport
import Testing

/// `cliptab menu` under the window managers people run, not only on a bare X server: the
/// popup is override-redirect, so the manager must neither frame nor move it, and the
/// menu's grabs must still be taken and given back.
@Suite(.serialized)
struct MenuWindowManagerTests {
    /// Under each manager: the popup opens at the pointer unframed, a filtered row's copy
    /// action puts exactly its text on the clipboard, Escape changes nothing, and the grab is
    /// free after both; the manager is still running at the end.
    @Test(arguments: VirtualDisplay.WindowManager.allCases)
    func menuWorksUnderAWindowManager(_ manager: VirtualDisplay.WindowManager) throws {
        let name = manager.rawValue
        let fixture = try MenuFixture()
        try fixture.makeSampleTable()
        let display = try #require(fixture.session.virtualDisplay)
        let process = try display.startWindowManager(manager)

        try fixture.tool("xdotool", "mousemove", "50", "40")
        let (menu, window) = try fixture.openMenu("t")
        let frame = try fixture.geometry(of: window)
        #expect(frame.x == 50 && frame.y == 40, "\(name) moved or framed the popup: \(frame)")
        try fixture.tool("xdotool", "type", "git")
        try fixture.tool("xdotool", "key", "Tab")
        try fixture.tool("xdotool", "key", "Return")
        #expect(fixture.exitCode(of: menu) == 0)
        #expect(try fixture.clipboard() == "git status")
        #expect(try fixture.grabIsFree())

        let before = try fixture.cliptab("export", "t").outputText
        let (second, _) = try fixture.openMenu("t")
        try fixture.tool("xdotool", "key", "Down", "Escape")
        #expect(fixture.exitCode(of: second) == 1)
        #expect(try fixture.cliptab("export", "t").outputText == before)
        #expect(try fixture.clipboard() == "git status")
        #expect(try fixture.grabIsFree())
        #expect(process.isRunning, "\(name) stopped while the menu was used")
    }
}
