// SPDX-License-Identifier: MIT

/// The addresses at which `cliptabd` serves the desktops' own search (`docs/dbus-api.md`,
/// "Additions of API version 3"): foreign interfaces, on the daemon's bus name
/// (`CliptabBus.name`) and objects of their own.
public enum DesktopSearchBus {
    /// The object of GNOME Shell's search provider.
    public static let searchProviderPath = "/io/github/cliptab/SearchProvider"
    /// GNOME Shell's search provider interface, version 2.
    public static let searchProviderInterface = "org.gnome.Shell.SearchProvider2"
    /// The object of the KRunner runner.
    public static let runnerPath = "/io/github/cliptab/KRunner"
    /// KRunner's D-Bus runner interface.
    public static let runnerInterface = "org.kde.krunner1"
    /// The desktop file the search provider's `DesktopId` names (its name and icon in
    /// GNOME's results; `cliptab menu` when opened).
    public static let desktopID = "io.github.cliptab.Cliptab.desktop"
}
