// SPDX-License-Identifier: MIT

/// The popup programs that `cliptab menu` runs, one per kind of session, installed beside
/// `cliptab`.
///
/// Each links only its own desktop's libraries: pango, cairo, GLib and libwayland loaded into
/// the X11 popup cost it about 3 ms at every start, a sixth of its time to the first frame.
public enum MenuProgram {
    /// The Xlib/Xft popup.
    public static let x11 = "cliptab-menu"
    /// The layer-shell popup (which hands over to `x11` where the compositor cannot be
    /// reached).
    public static let wayland = "cliptab-menu-wayland"
    /// The option of `x11` that keeps it from handing a Wayland session over to `wayland`.
    public static let x11Option = "--x11"

    /// The program for a session whose `WAYLAND_DISPLAY` is `waylandDisplay`: a Wayland
    /// session has one when the variable is set and not empty.
    public static func forSession(waylandDisplay: String?) -> String {
        guard let waylandDisplay, !waylandDisplay.isEmpty else { return x11 }
        return wayland
    }
}
