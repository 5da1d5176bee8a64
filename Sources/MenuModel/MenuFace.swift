// SPDX-License-Identifier: MIT

/// Which popup `cliptab menu` can show in this session: decided from what the session
/// offers, before anything is drawn.
public enum MenuFace: Equatable, Sendable {
    /// The Xlib popup (an X11 session, or a Wayland one whose compositor cannot be reached).
    case x11
    /// The layer-shell overlay on the Wayland compositor.
    case layerShell
    /// None: a Wayland compositor without layer-shell (GNOME) gives no popup the keyboard,
    /// and an X11 popup under XWayland would get none either.
    case refused

    /// The face for a session: `waylandDisplay` is WAYLAND_DISPLAY, `connected` whether the
    /// compositor answered, `layerShell` whether it offers `zwlr_layer_shell_v1`.
    public static func choose(waylandDisplay: String?, connected: Bool, layerShell: Bool) -> MenuFace {
        guard let waylandDisplay, !waylandDisplay.isEmpty, connected else { return .x11 }
        return layerShell ? .layerShell : .refused
    }
}
