// SPDX-License-Identifier: MIT

/// What the compositor said to the popup, in the popup's terms.
public enum LayerPopupEvent: Equatable, Sendable {
    /// A key press (or a repeat): its keysym, the text it types (maybe empty), and whether
    /// Control was held.
    case key(keysym: UInt32, text: String, control: Bool)
    /// The pointer is at (`x`, `y`) on the surface (it entered or moved), in logical pixels.
    case pointer(x: Int, y: Int)
    /// A button (1 left, 2 middle, 3 right) pressed at (`x`, `y`).
    case button(Int, x: Int, y: Int)
    /// One wheel step: -1 up, 1 down.
    case scroll(Int)
    /// The surface must be drawn again (another size or scale).
    case redraw
    /// The compositor closed the surface.
    case closed
}
