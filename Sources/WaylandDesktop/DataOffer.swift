// SPDX-License-Identifier: MIT
import CWayland

/// Another client's offer of a selection (a data-control offer), with the MIME types it
/// announced.
final class DataOffer {
    /// The offer object.
    let object: ProtocolObject
    /// The MIME types, in the order announced (at most the configured number).
    private(set) var mimeTypes: [String] = []
    private let maximumTypes: Int

    /// Takes an offer the compositor introduced.
    init(object: ProtocolObject, maximumTypes: Int) {
        self.object = object
        self.maximumTypes = maximumTypes
    }

    /// Records an announced type (duplicates and types past the bound are dropped).
    func announce(_ mimeType: String) {
        guard mimeTypes.count < maximumTypes, mimeType.utf8.count <= 255, !mimeTypes.contains(mimeType) else {
            return
        }
        mimeTypes.append(mimeType)
    }

    /// Asks the owner to write the data as `mimeType` into `fd` (which the caller closes).
    func receive(_ mimeType: String, into fd: Int32) {
        CWayland_offer_receive(object.handle, mimeType, fd)
    }
}
