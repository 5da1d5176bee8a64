// SPDX-License-Identifier: MIT

/// Why the popup could not be shown.
public struct PopupError: Error, Equatable, CustomStringConvertible {
    /// What failed.
    public let description: String

    /// Makes an error with a message.
    public init(_ description: String) { self.description = description }
}
