// SPDX-License-Identifier: MIT

/// The text a read of a selection found, and whether its owner marked it as a password.
public struct SelectionText: Sendable {
    /// The text as UTF-8.
    public var bytes: [UInt8]
    /// True when the owner offered `x-kde-passwordManagerHint` with the value `secret`
    /// (as KeePassXC does), or, for our own selection, when we own it as a secret.
    public let markedSecret: Bool

    /// Makes a result of `bytes` with the owner's mark.
    public init(bytes: [UInt8], markedSecret: Bool) {
        self.bytes = bytes
        self.markedSecret = markedSecret
    }
}
