// SPDX-License-Identifier: MIT
import Glibc

/// `/tmp/.X11-unix`, where X servers put their sockets, as every X server expects it.
///
/// The test sessions start X servers as root (Xvfb) and as the session's user (XWayland
/// under sway and mutter). The first one to start makes the directory: an XWayland run as
/// the session's user made it that user's with mode 0755, and mutter then refused to start
/// XWayland ("Wrong ownership"). Run as root, the fixtures make it (or set it back to) what
/// the system makes: root's, mode 1777.
public enum X11SocketDirectory {
    /// The directory.
    public static let path = "/tmp/.X11-unix"

    /// Makes the directory root's with mode 1777 (sticky, anyone may add a socket) where
    /// this process may; as another user, leaves it as it is.
    public static func ensure() {
        guard geteuid() == 0 else { return }
        _ = mkdir(path, 0o1777)
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else { return }
        if status.st_uid != 0 || status.st_gid != 0 { _ = chown(path, 0, 0) }
        if status.st_mode & 0o7777 != 0o1777 { _ = chmod(path, 0o1777) }
    }
}
