// SPDX-License-Identifier: MIT

/// A key the menu acts on, already translated from the keyboard.
public enum MenuKey: Equatable, Sendable {
    /// Up arrow.
    case up
    /// Down arrow.
    case down
    /// Page Up.
    case pageUp
    /// Page Down.
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
    /// Backspace.
    case backspace
    /// Delete.
    case delete
    /// Printable text typed.
    case text(String)
}
