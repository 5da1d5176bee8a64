// SPDX-License-Identifier: MIT

/// Why a pattern was refused or a match given up, in words that name the pattern and the
/// place.
public struct RegexError: Error, Equatable, Sendable {
    /// What kind of refusal.
    public enum Kind: Equatable, Sendable {
        /// The pattern is not a POSIX extended regular expression this engine accepts.
        case invalidPattern
        /// The pattern, or the work of matching it, is over a limit.
        case limitExceeded
    }

    /// What kind of refusal.
    public let kind: Kind
    /// The message a person reads.
    public let message: String

    /// A refusal of `kind` saying `message`.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }
}
