// SPDX-License-Identifier: MIT

/// Lets changes to named things settle before they are read: each name is due once
/// `delay` has passed on the caller's clock since its last change.
///
/// Editors and sync tools write a file in steps (a temporary file, then a rename; git
/// writes in place); reading at the first event would catch it half-written. Pure: the
/// caller passes the time, so a test drives it with a virtual clock.
public struct SettleTimer: Sendable {
    /// The quiet time after the last change, in milliseconds.
    public let delay: UInt64
    /// The due time of each pending name.
    private var due: [String: UInt64] = [:]

    /// A timer with nothing pending that settles after `delay` milliseconds.
    public init(delay: UInt64) { self.delay = delay }

    /// Notes a change of `name` at `now`: it is due `delay` (or `after`) later (again, if it
    /// was pending).
    public mutating func note(_ name: String, now: UInt64, after: UInt64? = nil) {
        due[name] = now + (after ?? delay)
    }

    /// The earliest due time of a pending name, if any.
    public var nextDeadline: UInt64? { due.values.min() }

    /// Whether anything is pending.
    public var isEmpty: Bool { due.isEmpty }

    /// Takes the names due at `now` (sorted), leaving the others pending.
    public mutating func takeDue(now: UInt64) -> [String] {
        let ready = due.filter { $0.value <= now }.keys.sorted()
        for name in ready { due[name] = nil }
        return ready
    }
}
