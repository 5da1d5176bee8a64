// SPDX-License-Identifier: MIT

/// A store file refused as it is, and left untouched.
///
/// Empty (truncated), not an SQLite database, damaged, another program's database, or of a
/// newer schema: no retry helps; only the user can mend it (move it aside, or put back a
/// copy).
public struct UnusableStore: Error, Equatable, Sendable, CustomStringConvertible {
    /// The store file.
    public let path: String
    /// What is wrong with it and what would help, naming `path`.
    public let message: String

    /// Makes the refusal of `path`.
    public init(path: String, _ message: String) {
        self.path = path
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
