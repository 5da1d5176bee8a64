// SPDX-License-Identifier: MIT
import PopupWindow
import Testing

/// Where the popup goes: at the pointer, opening left or up near the edges, inside the
/// smallest monitor that holds the pointer.
@Suite struct PopupRectTests {
    let screen = PopupRect(x: 0, y: 0, width: 1280, height: 480)

    @Test func opensAtThePointerWhenThereIsRoom() {
        #expect(
            screen.place(width: 300, height: 200, atX: 10, y: 20)
                == PopupRect(x: 10, y: 20, width: 300, height: 200))
    }

    @Test func opensLeftAndUpNearTheEdges() {
        #expect(
            screen.place(width: 300, height: 200, atX: 1270, y: 470)
                == PopupRect(x: 970, y: 270, width: 300, height: 200))
    }

    @Test func staysInsideAndShrinksToTheMonitor() {
        let monitor = PopupRect(x: 640, y: 0, width: 640, height: 480)
        // Too wide to open left of 1270 inside the monitor: narrowed, and pushed back in.
        #expect(
            monitor.place(width: 700, height: 100, atX: 1270, y: 10)
                == PopupRect(x: 640, y: 10, width: 640, height: 100))
        #expect(monitor.place(width: 900, height: 900, atX: 700, y: 10) == monitor)
    }

    @Test func picksTheSmallestMonitorHoldingThePointer() {
        let left = PopupRect(x: 0, y: 0, width: 640, height: 480)
        let right = PopupRect(x: 640, y: 0, width: 640, height: 480)
        let heads = [screen, left, right]
        #expect(PopupRect.smallest(containingX: 700, y: 10, in: heads) == right)
        #expect(PopupRect.smallest(containingX: 10, y: 10, in: heads) == left)
        #expect(PopupRect.smallest(containingX: 2000, y: 10, in: heads) == nil)
    }
}
