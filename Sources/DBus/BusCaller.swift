// SPDX-License-Identifier: MIT
import Posix

/// What sends method calls and waits for their replies: a full `BusConnection`, or a
/// `BusCallLink` for a process that only makes calls.
public protocol BusCaller: AnyObject {
    /// True once the bus has accepted the connection: it authenticated it and answered its
    /// `Hello`. A call that fails before then failed to reach the bus, not the callee.
    var isAccepted: Bool { get }

    /// Sends the method call `message` and waits at most `timeoutMilliseconds` (-1: libdbus's
    /// 25 s) for its reply; an error reply is thrown as a `BusError`, no reply in time as
    /// `NoReply`.
    func call(_ message: BusMessage, timeoutMilliseconds: Int32) throws -> BusMessage

    /// Sends every call of `messages` before waiting for the first reply, so that they cost
    /// one round trip instead of one each, then waits at most `timeoutMilliseconds` (-1: 25 s)
    /// in all; returns each call's reply or error in the order of `messages`.
    ///
    /// Throws only when a call cannot be sent at all (then none is waited for).
    func callAll(_ messages: [BusMessage], timeoutMilliseconds: Int32) throws -> [Result<
        BusMessage, BusError
    >]
}

extension BusConnection: BusCaller {
    /// The monotonic time (ms) `timeoutMilliseconds` from now, -1 meaning libdbus's default:
    /// one reading of a timeout for both kinds of caller.
    static func deadline(afterMilliseconds timeoutMilliseconds: Int32) -> UInt64 {
        MonotonicClock.milliseconds()
            + UInt64(timeoutMilliseconds < 0 ? defaultTimeoutMilliseconds : timeoutMilliseconds)
    }

    /// Always true: libdbus authenticates inside `connect`, and a refused `Hello` closes the
    /// connection (its calls then fail as `Disconnected`).
    public var isAccepted: Bool { true }

    /// Starts a pending call for each message, flushes them together and waits for each until
    /// the one deadline.
    public func callAll(_ messages: [BusMessage], timeoutMilliseconds: Int32) throws
        -> [Result<BusMessage, BusError>]
    {
        var outcomes: [Result<BusMessage, BusError>?] = Array(repeating: nil, count: messages.count)
        var pending: [BusPendingCall] = []
        let deadline = BusConnection.deadline(afterMilliseconds: timeoutMilliseconds)
        do {
            for (index, message) in messages.enumerated() {
                pending.append(
                    try call(message, timeoutMilliseconds: timeoutMilliseconds) { outcomes[index] = $0 })
            }
        } catch {
            for sent in pending { sent.cancel() }
            throw error
        }
        flush()
        for (index, call) in pending.enumerated() where !call.wait(until: deadline) {
            call.cancel()
            outcomes[index] = .failure(
                BusError(name: BusErrorName.noReply, message: "no reply within the timeout"))
        }
        return outcomes.map { outcome in
            // nil: the connection died before libdbus could hand the call its outcome.
            outcome
                ?? .failure(BusError(name: BusErrorName.disconnected, message: "the bus connection closed"))
        }
    }
}
