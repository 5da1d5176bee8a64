// SPDX-License-Identifier: MIT

/// Text read from another program's selection by `readText`.
public struct WaylandText: Equatable, Sendable {
    /// The bytes, as the owner sent them.
    public var bytes: [UInt8]
    /// The MIME type they were read as.
    public let mimeType: String
    /// True when the owner offered `x-kde-passwordManagerHint` with the content `secret`.
    public let markedSecret: Bool

    /// Makes a text.
    public init(bytes: [UInt8], mimeType: String, markedSecret: Bool) {
        self.bytes = bytes
        self.mimeType = mimeType
        self.markedSecret = markedSecret
    }
}
