// SPDX-License-Identifier: MIT

/// A window on the X server: ours, a requestor's or a selection owner's.
///
/// The corresponding C type is `Window`, an unsigned long; 0 is `None`.
public struct WindowID: RawRepresentable, Hashable, Sendable {
    /// The server's resource id of the window.
    public let rawValue: UInt

    /// Wraps a window id as the server gave it.
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// `None`: no window (a selection without an owner).
    public static let none = WindowID(rawValue: 0)

    /// `PointerRoot` (1), as an input focus: keyboard input goes to the window under the
    /// pointer.
    public static let pointerRoot = WindowID(rawValue: 1)
}
