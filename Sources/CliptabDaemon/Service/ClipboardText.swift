// SPDX-License-Identifier: MIT

/// The clipboard's text as read, and whether its owner marked it as a password.
public struct ClipboardText: Equatable, Sendable {
    /// The text.
    public let text: String
    /// True when the owner offered the password-manager hint `secret`
    /// (`x-kde-passwordManagerHint`, as KeePassXC sets it), or this daemon holds it as a
    /// secret copy.
    public let isMarkedSecret: Bool

    /// Makes a read result of `text` with the owner's mark.
    public init(text: String, isMarkedSecret: Bool) {
        self.text = text
        self.isMarkedSecret = isMarkedSecret
    }
}
