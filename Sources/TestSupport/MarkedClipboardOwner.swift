// SPDX-License-Identifier: MIT

/// A Tk program that owns CLIPBOARD with the text on its standard input and marks it with
/// the password-manager hint the way KeePassXC does (`x-kde-passwordManagerHint`).
///
/// Run as `python3 -c script MODE`: MODE `none` offers no hint, `refuse` lists the hint
/// target in TARGETS but refuses to convert it, any other MODE is the hint's value (`secret`
/// is the mark). It prints `ready` once it owns the clipboard and serves until killed or
/// until another program takes the clipboard.
public enum MarkedClipboardOwner {
    /// The Python source.
    public static var script: String { HelperPrograms.source("marked_clipboard_owner.py") }
}
