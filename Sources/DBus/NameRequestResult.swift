// SPDX-License-Identifier: MIT

/// The answer of the bus to `requestName`.
public enum NameRequestResult: Equatable, Sendable {
    /// This connection now owns the name.
    case primaryOwner
    /// Someone else owns it; this connection waits in the queue.
    case inQueue
    /// Someone else owns it and this connection did not queue (or could not replace it).
    case exists
    /// This connection owned it already.
    case alreadyOwner
}
