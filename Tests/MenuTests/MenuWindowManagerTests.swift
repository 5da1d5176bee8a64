// SPDX-License-Identifier: MIT
import Glibc
import Posix
import TestSupport
import Testing

/// `cliptab menu` under the window managers people run, not only on a bare X server: the
/// popup is override-redirect, so the manager must neither frame nor move it, and the
/// menu's grabs must still be taken and given back.
@Suite(.serialized)
struct MenuWindowManagerTests {
    /// The window managers tried, with the arguments that start each on the fixture's display.
    static let managers: [(name: String, arguments: [String])] = [
        ("openbox", ["--sm-disable"]),
        ("i3", ["-c", "CONFIG"]),
    ]

    /// Starts `manager` on the fixture's display and waits until it has taken the root
    /// window's substructure redirection (a second manager is then refused).
    func startManager(
        _ manager: (name: String, arguments: [String]), in fixture: MenuFixture
    ) throws -> ChildProcess {
        // i3 reads a configuration file; an almost empty one keeps it from starting its wizard.
        let config = fixture.data.appending("i3.conf")
        guard let file = fopen(config, "w") else { throw FixtureError("cannot write \(config)") }
        fputs("font pango:monospace 8\n", file)
        fclose(file)
        let arguments = manager.arguments.map { $0 == "CONFIG" ? config : $0 }
        let process = try ChildProcess.spawn(
            manager.name, arguments, environment: fixture.environment, stdout: .null, stderr: .null)
        let deadline = MonotonicClock.milliseconds() + 15_000
        while MonotonicClock.milliseconds() < deadline {
            guard process.isRunning else { throw FixtureError("\(manager.name) exited at start") }
            // xprop lists _NET_SUPPORTING_WM_CHECK on the root once the manager is up.
            let root = try fixture.tool("xprop", "-root", "_NET_SUPPORTING_WM_CHECK")
            if root.contains("window id") { return process }
            usleep(50_000)
        }
        throw FixtureError("\(manager.name) did not take the display within 15 s")
    }

    /// Under each manager: the popup opens at the pointer unframed, a filtered row's copy
    /// action puts exactly its text on the clipboard, Escape changes nothing, and the grab is
    /// free after both; the manager is still running at the end.
    @Test(arguments: managers.map(\.name))
    func menuWorksUnderAWindowManager(_ name: String) throws {
        let manager = try #require(Self.managers.first { $0.name == name })
        let fixture = try MenuFixture()
        try fixture.makeSampleTable()
        let process = try startManager(manager, in: fixture)
        defer { _ = process.terminate() }

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
