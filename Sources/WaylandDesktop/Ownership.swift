// SPDX-License-Identifier: MIT

/// A selection the service owns: its source object, the data of each offered type, and
/// the token its taking returned.
final class Ownership {
    /// The source, destroyed when the ownership ends (which, while it is the selection,
    /// makes the compositor clear the selection).
    let source: ProtocolObject
    /// The selection owned.
    let selection: WaylandSelectionName
    /// The token `own` returned.
    let token: WaylandOwnershipToken
    /// The offered MIME types, in the order offered.
    let mimeTypes: [String]
    /// The bytes of each offered MIME type.
    let formats: [String: [UInt8]]
    /// True once the compositor cancelled the source.
    var cancelled = false

    /// Makes an ownership record.
    init(
        source: ProtocolObject, selection: WaylandSelectionName, token: WaylandOwnershipToken,
        mimeTypes: [String],
        formats: [String: [UInt8]]
    ) {
        self.source = source
        self.mimeTypes = mimeTypes
        self.selection = selection
        self.token = token
        self.formats = formats
    }
}
