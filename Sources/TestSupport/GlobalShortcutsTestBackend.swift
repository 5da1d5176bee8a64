// SPDX-License-Identifier: MIT

/// A stand-in for a desktop's GlobalShortcuts portal backend, behind the real
/// xdg-desktop-portal (1.16 has the GlobalShortcuts frontend): it implements
/// `org.freedesktop.impl.portal.GlobalShortcuts` the way KDE's and GNOME's backends answer.
///
/// Run as `python3 -c script BUS STATE_DIR`. `BindShortcuts` answers after the "dialog",
/// the file `STATE_DIR/answer`: `grant` (the default) binds each shortcut to its preferred
/// trigger (`trigger_description` is the trigger, or `Unassigned` without one), anything else
/// is the person's cancel (response 1). Lines on standard input drive the desktop:
/// `activate ID` and `deactivate ID` emit `Activated` and `Deactivated` for the last
/// session, `change ID TRIGGER` emits `ShortcutsChanged` with that trigger, `close` closes
/// every session (its `Closed`); each prints `done`. `STATE_DIR/backend.log` records each
/// call (`CreateSession app_id=…`, `BindShortcuts ID=TRIGGER …`, `Session.Close`). It
/// prints `ready` once it owns its bus name.
public enum GlobalShortcutsTestBackend {
    /// The backend's bus name, as its `.portal` file names it.
    public static let busName = "org.freedesktop.impl.portal.desktop.cliptabkeys"

    /// The `.portal` file that makes xdg-desktop-portal use this backend on GNOME (put it in
    /// the directory `XDG_DESKTOP_PORTAL_DIR` names).
    public static let portalFile = """
        [portal]
        DBusName=\(busName)
        Interfaces=org.freedesktop.impl.portal.GlobalShortcuts;
        UseIn=GNOME;gnome

        """

    /// The Python source.
    public static var script: String { HelperPrograms.source("global_shortcuts_test_backend.py") }
}
