// SPDX-License-Identifier: MIT

/// A failure of the Wayland popup: the message names the call and the compositor's reason.
public struct LayerPopupError: Error, CustomStringConvertible {
    /// What failed.
    public let description: String

    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}
