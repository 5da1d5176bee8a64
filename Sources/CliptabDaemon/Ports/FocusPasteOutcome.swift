// SPDX-License-Identifier: MIT

/// What a paste into the focused window came to.
public struct FocusPasteOutcome: Equatable, Sendable {
    /// True when the target fetched the text after the keystroke.
    public var delivered = false
    /// True when this daemon owns the clipboard at the end.
    public var ownsClipboard = false
    /// True when the clipboard's previous text was put back.
    public var restored = false
    /// True when that text was this daemon's own earlier copy.
    public var restoredOwnCopy = false
    /// What happened that the log should tell (never any text).
    public var notes: [String] = []

    /// An outcome with nothing delivered or restored yet.
    public init() {}
}
