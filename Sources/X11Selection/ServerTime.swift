// SPDX-License-Identifier: MIT

/// A timestamp of the X server, in milliseconds since an arbitrary origin: the time a
/// selection was acquired, or the time a request was made.
///
/// The corresponding C type is `Time`, an unsigned long; 0 is `CurrentTime`.
public struct ServerTime: RawRepresentable, Hashable, Comparable, Sendable {
    /// The server's millisecond count.
    public let rawValue: UInt

    /// Wraps a server timestamp.
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// `CurrentTime`: "whenever the server handles the request", used by a requestor
    /// without a triggering event; never a real acquisition time.
    public static let current = ServerTime(rawValue: 0)

    /// True when `lhs` is earlier (as numbers: the 32-bit wrap after 49 days is ignored,
    /// as in every X client).
    public static func < (lhs: ServerTime, rhs: ServerTime) -> Bool { lhs.rawValue < rhs.rawValue }
}
