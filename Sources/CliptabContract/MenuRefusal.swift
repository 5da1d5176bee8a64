// SPDX-License-Identifier: MIT

/// The words of `cliptab menu` where no popup could take the keyboard (a Wayland compositor
/// without layer-shell, GNOME's mutter): said by `cliptab` and by `cliptab-menu` alike.
public enum MenuRefusal {
    /// The one line, without the program's name: why, and what to use instead.
    public static let message =
        "menu: this Wayland desktop (GNOME?) has no layer-shell, so no popup could take the keyboard;"
        + " type in GNOME's search (cliptabd is a search provider) or use 'cliptab pick'"
}
