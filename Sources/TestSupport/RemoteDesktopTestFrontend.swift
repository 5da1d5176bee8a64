// SPDX-License-Identifier: MIT

/// A stand-in for xdg-desktop-portal 1.17's `org.freedesktop.portal.RemoteDesktop`
/// (version 2, with persistent sessions), which Debian 12 does not ship (its 1.16 is
/// version 1): the Request objects' `Response` signals at the paths the spec predicts,
/// `persist_mode` 2 and one-use restore tokens, each `NotifyKeyboardKeysym` typed through a
/// session of mutter's own `org.gnome.Mutter.RemoteDesktop` so the keys land in real
/// windows on a headless mutter.
///
/// Run as `python3 -c script BUS MUTTER_BUS STATE_DIR`; it owns
/// `org.freedesktop.portal.Desktop` on BUS. Each `Start` without a restore token it gave
/// (and not used yet) is a consent, appended to `STATE_DIR/consents.log`; a `SelectDevices`
/// offering a token it did not give, or one used already, ends with response 2, as a portal
/// that no longer knows the token may. Its calls are recorded in `STATE_DIR/frontend.log`
/// (`SelectDevices … restore_token=…`, `SelectDevices refused the token`, `Start
/// restore_token=NEW`, `Session.Close`). As a newer portal (1.19.4 and later), it offers the
/// host registry: `Register APP_ID` is recorded, and so is the first read of the version
/// (`Get version`), so that their order shows. A line `close` on standard input closes every
/// session as the desktop does at the screen lock (`Session.Closed` to its owner) and prints
/// `closed`. It prints `ready` once it owns the name.
public enum RemoteDesktopTestFrontend {
    /// The Python source.
    public static var script: String { HelperPrograms.source("remote_desktop_test_frontend.py") }
}
