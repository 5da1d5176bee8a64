// SPDX-License-Identifier: MIT
import MenuModel

/// What happened on the popup's connection.
public enum PopupEvent: Equatable, Sendable {
    /// The window must be drawn again.
    case expose
    /// Another window covers part of the popup.
    case obscured
    /// A key was pressed.
    case key(MenuKey)
    /// The pointer moved to (x, y) in window coordinates.
    case motion(x: Int, y: Int)
    /// A button was pressed at (x, y) in window coordinates (4 and 5 are the wheel).
    case button(Int, x: Int, y: Int)
    /// Anything else (key releases, keys with no meaning here).
    case other
}
