// SPDX-License-Identifier: MIT

/// Why reading a selection gave no text.
///
/// Each case carries a message a person can act on.
public enum SelectionReadError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Nothing to paste: no owner, no text target offered, or the owner refused.
    case empty(String)
    /// The owner did not deliver the text within the timeout.
    case timedOut(String)
    /// The text is larger than the caller's limit.
    case tooLarge(String)
    /// The X display is gone (or was never reachable).
    case unavailable(String)
    /// Too many reads are already waiting (`SelectionConfiguration.maximumPendingReads`).
    case busy(String)

    /// The message alone.
    public var message: String {
        switch self {
        case .empty(let message), .timedOut(let message), .tooLarge(let message),
            .unavailable(let message), .busy(let message):
            return message
        }
    }

    /// The message alone.
    public var description: String { message }
}
