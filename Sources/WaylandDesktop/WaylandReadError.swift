// SPDX-License-Identifier: MIT

/// Why reading another program's selection failed.
public enum WaylandReadError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Nothing owns the selection.
    case nothingOffered
    /// The owner does not offer this type.
    case typeNotOffered(String)
    /// The owner offers no text type.
    case noText
    /// The owner did not finish writing within the timeout.
    case timedOut
    /// The owner wrote more than the byte limit.
    case tooLarge(limit: Int)
    /// `maximumPendingReads` reads are in flight already.
    case busy
    /// The primary selection was asked for and the compositor has none.
    case primaryUnsupported
    /// The service is broken (or was closed) with the read in flight.
    case broken
    /// A pipe or read call failed with this `errno`.
    case systemCall(String, code: Int32)

    /// A sentence for logs and D-Bus error messages.
    public var description: String {
        switch self {
        case .nothingOffered: return "nothing owns the selection"
        case .typeNotOffered(let type): return "the selection's owner does not offer \(type)"
        case .noText: return "the selection's owner offers no text"
        case .timedOut: return "the selection's owner did not send its data in time"
        case .tooLarge(let limit): return "the selection is larger than \(limit) bytes"
        case .busy: return "too many selection reads are in flight"
        case .primaryUnsupported:
            return "the Wayland compositor has no primary selection for clipboard managers"
        case .broken: return "the Wayland connection is broken"
        case .systemCall(let call, let code): return "\(call) failed: \(errorText(code))"
        }
    }
}
