// SPDX-License-Identifier: MIT

/// The text a copy, cut, paste or delete used, and whether it is secret.
public struct UsedText: Equatable, Sendable {
    /// The text: filled in for a template, as read for a paste.
    public var text: String
    /// True for a secret table's row, a filled-in text that includes a secret (a secret
    /// table's row, a clipboard text marked secret), and a pasted text its owner marked: a
    /// client leaves it out of what it prints or shows.
    public var isSecret: Bool

    /// Makes a result.
    public init(text: String, isSecret: Bool) {
        self.text = text
        self.isSecret = isSecret
    }
}
