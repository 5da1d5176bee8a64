// SPDX-License-Identifier: MIT
import CliptabContract
import Glibc
import Posix
import TestSupport
import Testing

/// The two popup programs: which one a session gets, what each links, and the hand-over
/// from the one a session should not have run.
@Suite(.serialized)
struct MenuProgramTests {
    /// A Wayland session is one whose WAYLAND_DISPLAY is set and not empty.
    @Test func aSessionWithAWaylandDisplayGetsTheWaylandPopup() {
        #expect(MenuProgram.forSession(waylandDisplay: "wayland-1") == MenuProgram.wayland)
        #expect(MenuProgram.forSession(waylandDisplay: "") == MenuProgram.x11)
        #expect(MenuProgram.forSession(waylandDisplay: nil) == MenuProgram.x11)
    }

    /// The libraries `ldd` says the built `program` loads, by file name.
    static func loaded(by program: String) throws -> [String] {
        let result = try ChildProcess.run("ldd", [BuiltProducts.path(of: program)])
        guard result.termination == .exited(0) else {
            throw FixtureError("ldd \(program): \(result.errorText)")
        }
        return result.outputText.split(separator: "\n").compactMap {
            String($0).trimmingCharacters(in: "\t ").split(separator: " ").first.map(String.init)
        }
    }

    /// Each popup loads only its own desktop's libraries: the X11 one no pango, cairo, GLib,
    /// libwayland or xkbcommon (they cost it 3 ms at every start), the Wayland one no Xft.
    @Test func eachPopupLoadsOnlyItsDesktopsLibraries() throws {
        let x11 = try Self.loaded(by: MenuProgram.x11)
        let wayland = try Self.loaded(by: MenuProgram.wayland)
        #expect(x11.contains { $0.hasPrefix("libXft.so") }, "\(x11)")
        for name in [
            "libpango-1.0.so", "libcairo.so", "libglib-2.0.so", "libwayland-client.so", "libxkbcommon.so",
        ] {
            #expect(!x11.contains { $0.hasPrefix(name) }, "cliptab-menu loads \(name)")
            #expect(wayland.contains { $0.hasPrefix(name) }, "cliptab-menu-wayland does not load \(name)")
        }
        #expect(!wayland.contains { $0.hasPrefix("libXft.so") }, "\(wayland)")
    }

    /// Where WAYLAND_DISPLAY names a compositor that does not answer, the Wayland popup hands
    /// over to the X11 one, which shows the table on the X display and copies the chosen row.
    @Test func theWaylandPopupHandsAnUnansweredSessionToX11() throws {
        let fixture = try MenuFixture()
        try fixture.makeSampleTable()
        let (menu, _) = try fixture.openWindow(
            of: MenuProgram.wayland, ["t"], environment: ["WAYLAND_DISPLAY": "no-such-wayland-display"])
        try fixture.tool("xdotool", "type", "git")
        try fixture.tool("xdotool", "key", "Return")
        #expect(fixture.exitCode(of: menu) == 0)
        #expect(try fixture.clipboard() == "git status")
        #expect(try fixture.grabIsFree())
    }
}
