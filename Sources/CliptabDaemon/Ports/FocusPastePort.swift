// SPDX-License-Identifier: MIT
import CliptabCore

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

/// A clipboard that can paste into the window that has the input focus.
public protocol FocusPastePort: AnyObject {
    /// Puts `text` on the clipboard, sends the paste keystroke to the focused window,
    /// waits for the target to fetch the text (at most `timeoutMilliseconds`; 0 for the
    /// configured default), then restores the clipboard; `completion` runs from the loop.
    func pasteToFocus(
        _ text: String, isSecret: Bool, timeoutMilliseconds: Int,
        completion: @escaping (Result<FocusPasteOutcome, CliptabError>) -> Void)
}
