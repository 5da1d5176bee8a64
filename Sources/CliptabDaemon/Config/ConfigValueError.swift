// SPDX-License-Identifier: MIT

/// A value that does not fit its key, in the words a problem report or a usage error uses
/// after the key's name.
public struct ConfigValueError: Error, Equatable, Sendable {
    /// What was expected and what was found.
    public let message: String

    /// Makes an error with `message`.
    public init(_ message: String) { self.message = message }
}
