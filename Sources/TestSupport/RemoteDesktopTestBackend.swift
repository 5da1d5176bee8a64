// SPDX-License-Identifier: MIT

/// A stand-in for a desktop's RemoteDesktop portal backend, behind the real
/// xdg-desktop-portal: it implements `org.freedesktop.impl.portal.RemoteDesktop` (and the
/// ScreenCast interface that xdg-desktop-portal 1.16 needs before it offers RemoteDesktop)
/// and types each `NotifyKeyboardKeysym` through a session of mutter's own
/// `org.gnome.Mutter.RemoteDesktop`, the way xdg-desktop-portal-gnome does, so the keys
/// land in real windows on a headless mutter.
///
/// Run as `python3 -c script PORTAL_BUS MUTTER_BUS STATE_DIR`. The "consent" is the file
/// `STATE_DIR/consent` (`grant`, the default, `ask`, or anything else: the person refused);
/// with `ask` the dialog stays up: `Start` prints `asked` and answers once a line (`grant`
/// or another answer) comes on standard input, then prints `answered`. Each time `Start`
/// asks, the answer is appended to `STATE_DIR/consents.log`. A `SelectDevices`
/// carrying the `restore_data` this backend gave before (the frontend's translation of a
/// restore token) starts without asking. `STATE_DIR/backend.log` records each call. It
/// holds its mutter session from the start and sends one Shift, so that the seat has a
/// keyboard before any window binds it, and prints `ready` once it owns its bus name.
public enum RemoteDesktopTestBackend {
    /// The backend's bus name, as its `.portal` file names it.
    public static let busName = "org.freedesktop.impl.portal.desktop.cliptabtest"

    /// The `.portal` file that makes xdg-desktop-portal use this backend on GNOME (put it
    /// alone in the directory `XDG_DESKTOP_PORTAL_DIR` names).
    public static let portalFile = """
        [portal]
        DBusName=\(busName)
        Interfaces=org.freedesktop.impl.portal.RemoteDesktop;org.freedesktop.impl.portal.ScreenCast;
        UseIn=GNOME;gnome

        """

    /// The Python source.
    public static var script: String { HelperPrograms.source("remote_desktop_test_backend.py") }
}
