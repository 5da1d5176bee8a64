// SPDX-License-Identifier: MIT
import Foundation
import Glibc
import Posix
import TestSupport
import Testing

/// The Wayland popup and the mouse, on a headless sway whose seat gets a virtual pointer
/// (it has none of its own): the box opens at the pointer, hovering a row chooses it, a
/// click takes it, a click outside closes.
@Suite(.serialized)
struct WaylandMouseTests {
    typealias Session = WaylandMenuTests.Session

    /// The pointer plugged into `session`'s seat, its output as large as the screenshot.
    func plugPointer(into session: Session) throws -> VirtualPointer {
        let desktop = try session.screen()
        return try VirtualPointer(
            display: session.sway.socketPath, width: desktop.width, height: desktop.height)
    }

    /// The first screenshot for which `condition` holds, within 10 s.
    func screen(of session: Session, where condition: (PortablePixmap) -> Bool) throws -> PortablePixmap? {
        var found: PortablePixmap?
        _ = try eventually {
            let shot = try session.screen()
            if condition(shot) { found = shot }
            return found != nil
        }
        return found
    }

    /// The box opens with its corner at the pointer; hovering the third row chooses it (its
    /// background turns the chosen colour) and a click copies it (`[menu] enter = copy`).
    @Test func opensAtThePointerHoverChoosesAndClickTakes() throws {
        let session = try Session()
        let pointer = try plugPointer(into: session)
        try pointer.move(x: 150, y: 90)
        let (menu, _) = try session.open(["t"])
        // The compositor says where the pointer is when the overlay appears under it, or at
        // the first motion: the box then opens there, once.
        try pointer.move(x: 151, y: 91)
        let placed = try screen(of: session) { shot in
            guard let box = shot.bounds(of: WaylandMenuTests.background) else { return false }
            return abs(box.x - 150) <= 1 && abs(box.y - 90) <= 1
        }
        let shot = try #require(placed, "the box did not move to the pointer at 150, 90")
        let box = try #require(shot.bounds(of: WaylandMenuTests.background))
        let chosen = try #require(shot.bounds(of: WaylandMenuTests.selectedBackground))
        // Window row 1 (alpha) is chosen at first, under the prompt line.
        let line = chosen.height
        #expect(chosen.y == box.y + line && chosen.x == box.x, "box \(box), chosen \(chosen)")
        // Hover the third row (gamma): it becomes the chosen one.
        try pointer.move(x: box.x + 40, y: box.y + 3 * line + line / 2)
        let hovered = try screen(of: session) { shot in
            shot.bounds(of: WaylandMenuTests.selectedBackground)?.y == box.y + 3 * line
        }
        #expect(hovered != nil, "hovering the third row did not choose it")
        try pointer.click()
        #expect(menu.waitForExit(timeoutMilliseconds: 20_000) == .exited(0))
        #expect(try session.clipboard() == "gamma")
        #expect(try session.keyboardIsFree())
    }

    /// Near the output's bottom right corner the box opens left of and above the pointer
    /// (there is no room right or below), and a click outside it closes the menu with status 1,
    /// changing nothing.
    @Test func opensLeftAndUpNearTheCornerAndAClickOutsideCloses() throws {
        let session = try Session()
        _ = try session.sway.copy(Array("before".utf8))
        let desktop = try session.screen()
        let pointer = try plugPointer(into: session)
        let corner = (x: desktop.width - 20, y: desktop.height - 20)
        try pointer.move(x: corner.x, y: corner.y)
        let (menu, _) = try session.open(["t"])
        try pointer.move(x: corner.x + 1, y: corner.y + 1)
        let placed = try screen(of: session) { shot in
            guard let box = shot.bounds(of: WaylandMenuTests.background) else { return false }
            return abs(box.x + box.width - corner.x) <= 2 && abs(box.y + box.height - corner.y) <= 2
        }
        #expect(placed != nil, "the box did not open left of and above the pointer")
        // Top left of the output: outside the box.
        try pointer.move(x: 5, y: 5)
        try pointer.click()
        #expect(menu.waitForExit(timeoutMilliseconds: 20_000) == .exited(1))
        #expect(try session.clipboard() == "before")
        #expect(try session.keyboardIsFree())
    }
}
