// SPDX-License-Identifier: MIT
import Glibc
import Posix
import TestSupport
import Testing

/// Both popups read `[menu]` colours the one way the man page promises (`#rrggbb` or an X
/// colour name): `navy` draws the same box on X11 and on Wayland, and a value that is no
/// colour is named, with its key, in the same words by both.
@Suite(.serialized)
struct MenuColourTests {
    /// What both popups say of `background = nosuch` (after the file's path and line).
    static let badColour =
        ":2: background must be #rrggbb or an X colour name (such as navy), not \"nosuch\"; using the default"
    /// `navy`.
    static let navy: UInt32 = 0x00_00_80

    /// The X11 popup on Xvfb draws its box in `navy`.
    @Test func x11PopupDrawsANamedColour() throws {
        let fixture = try MenuFixture(menu: "background = navy\nenter = copy\n")
        try fixture.makeSampleTable()
        let (menu, window) = try fixture.openMenu("t")
        let frame = try fixture.geometry(of: window)
        // The first frame may still be on its way: wait for the box's corner.
        let deadline = MonotonicClock.milliseconds() + 20_000
        var corner = try fixture.screenshot().pixel(frame.x + frame.width - 1, frame.y + frame.height - 1)
        while corner != Self.navy && MonotonicClock.milliseconds() < deadline {
            usleep(50_000)
            corner = try fixture.screenshot().pixel(frame.x + frame.width - 1, frame.y + frame.height - 1)
        }
        #expect(corner == Self.navy, "the corner is \(String(corner, radix: 16))")
        try fixture.tool("xdotool", "key", "Escape")
        #expect(fixture.exitCode(of: menu) == 1)
    }

    /// The Wayland popup on a headless sway draws its box in `navy` (it once refused names).
    @Test func waylandPopupDrawsANamedColour() throws {
        let session = try WaylandMenuTests.Session(
            menu: "background = navy\nenter = copy\n", background: Self.navy)
        let (menu, shot) = try session.open(["t"])
        let box = try #require(shot.bounds(of: Self.navy))
        #expect(box.width > 200 && box.height > 60, "box \(box)")
        #expect(try session.type("", keys: ["Escape"], into: menu) == .exited(1))
    }

    /// A bad colour is named with its key, in the same words by both popups (the table asked
    /// for does not exist, so each says so and ends without drawing).
    @Test func bothPopupsNameABadColourAlike() throws {
        let fixture = try MenuFixture(menu: "background = nosuch\n")
        let x11 = try fixture.cliptab("menu", "missing").errorText
        #expect(x11.contains(Self.badColour), "\(x11)")
        let session = try WaylandMenuTests.Session(menu: "background = nosuch\n")
        let wayland = try session.cliptab(["menu", "missing"]).errorText
        #expect(wayland.contains(Self.badColour), "\(wayland)")
    }
}
