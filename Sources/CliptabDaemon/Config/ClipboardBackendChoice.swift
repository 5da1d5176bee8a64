// SPDX-License-Identifier: MIT

/// Which clipboard backend the daemon uses: `[clipboard] backend` and
/// `--clipboard-backend`.
public enum ClipboardBackendChoice: String, CaseIterable, Equatable, Sendable {
    /// Wayland's data-control where `WAYLAND_DISPLAY` names a compositor that has it,
    /// otherwise X11 (on GNOME: XWayland, which mutter bridges).
    case auto
    /// Wayland's data-control only.
    case wayland
    /// X11 only (`DISPLAY`).
    case x11
}
