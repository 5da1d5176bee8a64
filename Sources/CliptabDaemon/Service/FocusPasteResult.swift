// SPDX-License-Identifier: MIT

/// What a paste into the focused window came to.
public struct FocusPasteResult: Equatable, Sendable {
    /// True when the focused window fetched the text after the keystroke.
    public var delivered: Bool
    /// Why it was not delivered, in words a person can act on; empty when delivered.
    public var reason: String
    /// What else happened that the log should tell (never any text).
    public var notes: [String]
    /// The rows the focused window fetched: 1 or 0 for a paste, how many of its rows for a
    /// fill (`FillToFocus`).
    public var filled: Int

    /// Makes a result.
    public init(delivered: Bool, reason: String, notes: [String] = []) {
        self.delivered = delivered
        self.reason = reason
        self.notes = notes
        filled = delivered ? 1 : 0
    }
}
