// SPDX-License-Identifier: MIT

/// A stand-in for a newer xdg-desktop-portal (1.19.4 and later) with the host registry
/// (`org.freedesktop.host.portal.Registry`), which Debian 12's 1.16 lacks, and a
/// GlobalShortcuts interface that binds at once.
///
/// Run as `python3 -c script BUS STATE_DIR`; it owns `org.freedesktop.portal.Desktop` on
/// BUS. As the real registry, it takes one `Register` per connection, before any other
/// portal call of it (a later one is an error). `STATE_DIR/frontend.log` records each call
/// in order: `Register APP_ID`, `CreateSession app_id=APP_ID` (the id the sender
/// registered, empty without), `BindShortcuts ID=TRIGGER …`. It prints `ready` once it owns
/// the name.
public enum HostRegistryTestFrontend {
    /// The Python source.
    public static var script: String { HelperPrograms.source("host_registry_test_frontend.py") }
}
