// SPDX-License-Identifier: MIT

/// Errors of the test fixtures, each saying which helper failed and how.
public struct FixtureError: Error, CustomStringConvertible {
    /// What went wrong.
    public let description: String

    /// Makes an error with a message.
    public init(_ description: String) { self.description = description }
}
