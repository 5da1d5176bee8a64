// SPDX-License-Identifier: MIT
internal import CDBus
import Posix

/// A method call sent without waiting: owns a `DBusPendingCall` reference.
///
/// The reply handler runs from `dispatchAll()` (or `wait(until:)`) on the connection's thread, exactly once, with
/// the reply or the error (an error reply, `NoReply` when the timeout passed, `Disconnected`
/// when the connection died or was closed first). Dropping this object does not cancel the
/// call; `cancel()` does.
public final class BusPendingCall {
    /// The libdbus pending call; one reference belongs to this object.
    private let handle: OpaquePointer
    /// The handler, shared with libdbus's notify function and the connection's table.
    private let reply: PendingReply
    /// The connection the call went on (weak: a call does not keep it open).
    private weak var connection: BusConnection?

    /// Takes over one reference to `handle`.
    private init(owning handle: OpaquePointer, reply: PendingReply, connection: BusConnection) {
        self.handle = handle
        self.reply = reply
        self.connection = connection
    }

    deinit {
        dbus_pending_call_unref(handle)
    }

    /// True once the handler has run (or the call was cancelled).
    public var isCompleted: Bool { reply.isFinished || dbus_pending_call_get_completed(handle) != 0 }

    /// Reads and dispatches the connection until the outcome has come (the handler has run)
    /// or the monotonic clock reaches `deadline` (milliseconds); true when it came.
    ///
    /// libdbus's own blocking wait counts the call's whole timeout from when it starts, so
    /// calls waited for one after another would each wait it anew.
    public func wait(until deadline: UInt64) -> Bool {
        while !isCompleted {
            guard let connection, connection.isConnected else {
                connection?.dispatchAll()
                return isCompleted
            }
            let now = MonotonicClock.milliseconds()
            guard now < deadline else { return false }
            connection.withUnsafeHandle {
                _ = dbus_connection_read_write($0, Int32(clamping: deadline - now))
            }
            connection.dispatchAll()
        }
        return true
    }

    /// Stops waiting: the handler will not be called and a late reply is dropped.
    public func cancel() {
        reply.discard()
        dbus_pending_call_cancel(handle)
    }

    /// Sends `message` on `connection` and arranges for `handler`.
    static func start(
        _ message: BusMessage, on connection: BusConnection, timeoutMilliseconds: Int32,
        handler: @escaping (Result<BusMessage, BusError>) -> Void
    ) throws -> BusPendingCall {
        var pending: OpaquePointer?
        let sent = connection.withUnsafeHandle { raw in
            message.withUnsafeHandle { message in
                dbus_connection_send_with_reply(raw, message, &pending, timeoutMilliseconds)
            }
        }
        message.markSent()
        guard sent != 0 else { throw BusError.noMemory("sending a method call") }
        // libdbus gives no pending call when the connection is already closed.
        guard let pending else {
            throw BusError(name: BusErrorName.disconnected, message: "the connection is closed")
        }
        let serial = message.withUnsafeHandle { dbus_message_get_serial($0) }
        let reply = PendingReply(serial: serial, connection: connection, handler: handler)
        let call = BusPendingCall(owning: pending, reply: reply, connection: connection)
        let data = Unmanaged.passRetained(reply).toOpaque()
        let notifySet = dbus_pending_call_set_notify(
            pending,
            { pending, data in
                guard let pending, let data else { return }
                let reply = Unmanaged<PendingReply>.fromOpaque(data).takeUnretainedValue()
                guard let message = dbus_pending_call_steal_reply(pending) else {
                    reply.complete(
                        .failure(BusError(name: BusErrorName.noReply, message: "no reply arrived")))
                    return
                }
                reply.complete(with: BusMessage.adopting(message))
            }, data,
            { data in
                // libdbus frees the notify data with the pending call (or when it is replaced).
                guard let data else { return }
                Unmanaged<PendingReply>.fromOpaque(data).release()
            })
        guard notifySet != 0 else {
            Unmanaged<PendingReply>.fromOpaque(data).release()
            dbus_pending_call_cancel(pending)
            throw BusError.noMemory("arranging for a reply")
        }
        // Kept by the connection too: libdbus forgets a pending call when the connection
        // drops (see `PendingReply`), and the connection then completes it itself.
        connection.track(reply)
        return call
    }
}

extension BusConnection {
    /// Sends the method call `message` without waiting; `replyHandler` gets the reply (or the
    /// error, `NoReply` after `timeoutMilliseconds`, `Disconnected` if the connection dies or
    /// is closed first) from a later `dispatchAll()` (or from `close()`).
    ///
    /// The timeout runs on the connection's main-loop integration: the loop must call
    /// `handleExpiredTimeouts()` (blocking `call` and `readMessage` do not need it).
    @discardableResult
    public func call(
        _ message: BusMessage, timeoutMilliseconds: Int32,
        replyHandler: @escaping (Result<BusMessage, BusError>) -> Void
    ) throws -> BusPendingCall {
        try BusConnection.checkCallable(message, timeoutMilliseconds: timeoutMilliseconds)
        return try BusPendingCall.start(
            message, on: self, timeoutMilliseconds: timeoutMilliseconds, handler: replyHandler)
    }
}
