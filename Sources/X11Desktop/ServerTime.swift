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

    /// The server's count as the protocol sends it: 32 bits (a CARD32), whatever the
    /// width of `Time`.
    public var card32: UInt32 { UInt32(truncatingIfNeeded: rawValue) }

    /// True when `lhs` is earlier, as the X protocol compares timestamps.
    ///
    /// The count wraps every 2³² ms (49.7 days), and of two times the later is the one less
    /// than 2³¹ ms (24.9 days) ahead, modulo 2³². Compared as plain numbers, a request made
    /// just after the wrap would look older than an ownership taken just before it, and be
    /// refused. An order only among times within 24.9 days of each other, as every X client's.
    public static func < (lhs: ServerTime, rhs: ServerTime) -> Bool {
        let ahead = rhs.card32 &- lhs.card32
        return ahead != 0 && ahead < 1 << 31
    }
}
