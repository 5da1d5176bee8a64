// SPDX-License-Identifier: MIT

/// The two selections of a Wayland seat.
public enum WaylandSelectionName: Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// The clipboard (copy and paste).
    case clipboard
    /// The primary selection (select and middle-click).
    case primary

    /// "clipboard" or "primary".
    public var description: String { self == .clipboard ? "clipboard" : "primary" }
}
