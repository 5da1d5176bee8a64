// SPDX-License-Identifier: MIT
import CliptabCore

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

    /// The text of UTF-8 `bytes` a backend read, with the owner's mark; a text holding NUL
    /// is refused by name, since a cell cannot store it and D-Bus cannot carry it.
    public static func decoding(_ bytes: [UInt8], isMarkedSecret: Bool) -> Result<ClipboardText, CliptabError>
    {
        if let offset = bytes.firstIndex(of: 0) {
            return .failure(
                CliptabError(
                    .invalidArgument,
                    "the clipboard text holds NUL bytes at offset \(offset), which a cell cannot store "
                        + "and D-Bus cannot carry"))
        }
        return .success(
            ClipboardText(text: String(decoding: bytes, as: UTF8.self), isMarkedSecret: isMarkedSecret))
    }
}
