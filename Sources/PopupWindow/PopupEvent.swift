// SPDX-License-Identifier: MIT

/// A key as the popup reads it: the keys it acts on, or text typed.
public enum PopupKey: Equatable, Sendable {
    /// Up arrow (also keypad).
    case up
    /// Down arrow (also keypad).
    case down
    /// Page Up (Prior).
    case pageUp
    /// Page Down (Next).
    case pageDown
    /// Home.
    case home
    /// End.
    case end
    /// Return or keypad Enter.
    case enter
    /// Escape.
    case escape
    /// Tab.
    case tab
    /// Right arrow.
    case right
    /// Left arrow.
    case left
    /// BackSpace.
    case backspace
    /// Delete.
    case delete
    /// Printable text, UTF-8.
    case text(String)
}

/// What happened on the popup's connection.
public enum PopupEvent: Equatable, Sendable {
    /// The window must be drawn again.
    case expose
    /// Another window covers part of the popup.
    case obscured
    /// A key was pressed.
    case key(PopupKey)
    /// The pointer moved to (x, y) in window coordinates.
    case motion(x: Int, y: Int)
    /// A button was pressed at (x, y) in window coordinates (4 and 5 are the wheel).
    case button(Int, x: Int, y: Int)
    /// Anything else (key releases, keys with no meaning here).
    case other
}
