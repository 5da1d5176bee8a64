// SPDX-License-Identifier: MIT

/// When the RemoteDesktop portal's session has been idle long enough to close: the rule of
/// `[paste_to_focus] portal_idle_ms`, apart from the bus so that a test drives it with a
/// virtual clock.
///
/// The session is used at its start and at every paste (its readiness asked, its keys sent);
/// `portal_idle_ms` after the last use it is closed where the consent can be restored
/// without a dialog (a kept restore token, portal version 2 or later). Where it cannot, the
/// verdict is to keep it, once: a closed session would make the desktop ask at every paste.
/// A session still busy at its deadline (keys in flight, a paste waiting for it) counts as
/// used then.
public struct RemoteDesktopIdle: Sendable, Equatable {
    /// What to do with the session now.
    public enum Verdict: Sendable, Equatable {
        /// Nothing yet.
        case wait
        /// Close it: idle for `portal_idle_ms`, and the consent can be restored.
        case close
        /// Keep it, though idle: the consent could not be restored (said once).
        case keep
    }

    /// The last use, in the clock's milliseconds; nil while there is no session.
    public private(set) var lastUse: UInt64?
    /// Set once a keep was said, so that it is said once.
    private var keepSaid = false

    /// No session yet.
    public init() {}

    /// Notes a use of the session at `now` (its start, or a paste).
    public mutating func used(at now: UInt64) { lastUse = now }

    /// The moment the next verdict other than `wait` is due, if any.
    public func deadline(idleMilliseconds: Int, canRestore: Bool) -> UInt64? {
        guard let lastUse, canRestore || !keepSaid else { return nil }
        return lastUse + UInt64(max(idleMilliseconds, 0))
    }

    /// The verdict at `now` for `idleMilliseconds` of `portal_idle_ms`; `canRestore` when a
    /// new session would start without a dialog, `busy` while a paste uses the session.
    public mutating func verdict(now: UInt64, idleMilliseconds: Int, canRestore: Bool, busy: Bool) -> Verdict
    {
        guard let deadline = deadline(idleMilliseconds: idleMilliseconds, canRestore: canRestore),
            now >= deadline
        else { return .wait }
        if busy {
            lastUse = now
            return .wait
        }
        if canRestore {
            lastUse = nil
            return .close
        }
        keepSaid = true
        return .keep
    }
}
