// SPDX-License-Identifier: MIT

/// Why the Wayland selection service could not connect, or stopped working.
///
/// Every failure of libwayland-client becomes one of these in `DisplayConnection`; after
/// any of them but `primaryUnsupported` and `notTaken` the service is broken and the caller
/// connects a new one.
public enum WaylandError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `wl_display_connect` failed for this display (its name, or `$WAYLAND_DISPLAY`).
    case connectFailed(display: String, code: Int32)
    /// The compositor has no global of this interface (`wl_seat`, or a data-control manager).
    case missingGlobal(String)
    /// The connection failed in this call with this `errno`.
    case connectionLost(call: String, code: Int32)
    /// The compositor reported a protocol error on an object of this interface.
    case protocolError(interface: String, code: UInt32, objectID: UInt32)
    /// The compositor did not answer a round trip (while doing the named thing) in time.
    case compositorTimedOut(String)
    /// The seat went away (the data device was finished).
    case seatRemoved
    /// The data-control manager is too old for a primary selection (zwlr before version 2).
    case primaryUnsupported
    /// The compositor cancelled the new source at once: something else owns the selection.
    case notTaken
    /// A file-descriptor call failed with this `errno`.
    case systemCall(String, code: Int32)

    /// A sentence for logs and D-Bus error messages.
    public var description: String {
        switch self {
        case .connectFailed(let display, let code):
            return "cannot connect to the Wayland display \(display): \(errorText(code))"
        case .missingGlobal(let interface):
            return "the Wayland compositor offers no \(interface)"
        case .connectionLost(let call, let code):
            return "the Wayland connection failed in \(call): \(errorText(code))"
        case .protocolError(let interface, let code, let objectID):
            return "the Wayland compositor reported protocol error \(code) on \(interface)@\(objectID)"
        case .compositorTimedOut(let what):
            return "the Wayland compositor did not answer in time (\(what))"
        case .seatRemoved:
            return "the Wayland seat went away"
        case .primaryUnsupported:
            return "the Wayland compositor's data-control manager has no primary selection"
        case .notTaken:
            return "the Wayland compositor gave the selection to another client at once"
        case .systemCall(let call, let code):
            return "\(call) failed: \(errorText(code))"
        }
    }
}
