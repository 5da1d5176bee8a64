// SPDX-License-Identifier: MIT
import Glibc

/// A failure of the Wayland popup: the message names the call and the compositor's reason.
public struct LayerPopupError: Error, CustomStringConvertible {
    /// What failed.
    public let description: String

    /// An error saying `description`.
    public init(_ description: String) { self.description = description }

    /// `what` failed with the reason `errno` holds now: the one place a C failure's code
    /// becomes a message.
    static func errno(_ what: String) -> LayerPopupError {
        LayerPopupError("\(what): \(String(cString: strerror(Glibc.errno)))")
    }

    /// The connection broke (libwayland said so, with `errno`).
    static var connectionBroke: LayerPopupError { errno("the Wayland compositor broke the connection") }
}
