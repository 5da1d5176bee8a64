// SPDX-License-Identifier: MIT
import CWaylandPopup

/// One Wayland object the popup made: destroyed (or released) when its owner lets it go.
///
/// The corresponding C type is `struct wl_proxy`, under the protocol's own type.
final class PopupProxy {
    /// The object, for the scanner's request functions.
    let pointer: OpaquePointer
    private let destroy: (OpaquePointer) -> Void

    /// Owns `pointer` (nil: the request failed, nothing to own), ended by `destroy`.
    init?(_ pointer: OpaquePointer?, destroy: @escaping (OpaquePointer) -> Void) {
        guard let pointer else { return nil }
        self.pointer = pointer
        self.destroy = destroy
    }

    /// Owns what `wl_registry_bind` returned.
    convenience init?(bound: UnsafeMutableRawPointer?, destroy: @escaping (OpaquePointer) -> Void) {
        self.init(bound.map { OpaquePointer($0) }, destroy: destroy)
    }

    deinit { destroy(pointer) }
}
