// SPDX-License-Identifier: MIT

/// Why text could not be drawn: the message names what failed.
public struct TextError: Error, CustomStringConvertible {
    /// What failed.
    public let description: String

    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}
