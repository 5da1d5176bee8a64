// SPDX-License-Identifier: MIT

/// When a lost connection to the compositor is tried again, and what to tell the user
/// meanwhile: after `base` milliseconds, doubled for each loss that follows a connection
/// that did not last `stable` milliseconds, at most `maximum`.
///
/// A compositor may drop every clipboard manager while one selection is offered (sway 1.7
/// does so for a selection of 5,000 types, whose offer overflows each client's buffer): each
/// new connection is dropped again as long as that owner lives, so the attempts back off
/// instead of reconnecting every few seconds for as long as it does.
public struct ReconnectSchedule {
    /// The first delay, in milliseconds.
    public let base: UInt64
    /// The longest delay, in milliseconds.
    public let maximum: UInt64
    /// How long a connection must have lasted for its loss to start the count anew.
    public let stable: UInt64
    /// The losses (and failed attempts after them) in a row; 0 before the first.
    public private(set) var losses = 0
    /// When the last loss happened (the monotonic clock's milliseconds), and why.
    public private(set) var lastLoss: (at: UInt64, reason: String)?
    private var connectedAt: UInt64?

    /// A schedule starting at `base` milliseconds.
    public init(base: Int, maximum: UInt64 = 60_000, stable: UInt64 = 60_000) {
        self.base = UInt64(max(base, 1))
        self.maximum = max(maximum, self.base)
        self.stable = stable
    }

    /// Notes a connection made at `now`.
    public mutating func connected(now: UInt64) { connectedAt = now }

    /// Notes the loss of the connection (or a failed attempt after one) at `now`; returns
    /// the delay until the next attempt.
    public mutating func lost(now: UInt64, reason: String) -> UInt64 {
        if let connectedAt, now >= connectedAt + stable { losses = 0 }
        connectedAt = nil
        losses += 1
        lastLoss = (now, reason)
        return delay
    }

    /// The delay after the current run of losses.
    public var delay: UInt64 { min(base << UInt64(min(max(losses - 1, 0), 16)), maximum) }
}
