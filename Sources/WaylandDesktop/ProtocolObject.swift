// SPDX-License-Identifier: MIT
import CWayland

/// Owns one client-side Wayland object (a `wl_proxy`): sends its destructor request (or
/// destroys the proxy) when released, before the display it belongs to, which it keeps.
final class ProtocolObject {
    /// The proxy.
    let handle: OpaquePointer
    private let display: DisplayConnection
    private let destructor: (OpaquePointer) -> Void

    private init(
        handle: OpaquePointer, display: DisplayConnection, destructor: @escaping (OpaquePointer) -> Void
    ) {
        self.handle = handle
        self.display = display
        self.destructor = destructor
    }

    /// Takes `handle` (made by `what`), which `destructor` ends; throws when libwayland made
    /// none (out of memory, or the connection failed).
    static func take(
        _ handle: OpaquePointer?, of display: DisplayConnection, making what: String,
        destructor: @escaping (OpaquePointer) -> Void
    ) throws(WaylandError) -> ProtocolObject {
        guard let handle else {
            display.fail(in: what)
            throw display.failure ?? .connectionLost(call: what, code: 0)
        }
        return ProtocolObject(handle: handle, display: display, destructor: destructor)
    }

    deinit { destructor(handle) }
}
