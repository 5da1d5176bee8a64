// SPDX-License-Identifier: MIT
import CDBus

/// A method call sent without waiting: owns a `DBusPendingCall` reference.
///
/// The reply handler runs from `dispatchAll()` on the connection's thread, once, with the
/// reply or the error (an error reply, `NoReply` when the timeout passed, `Disconnected`).
/// Dropping this object does not cancel the call; `cancel()` does.
public final class BusPendingCall {
    /// The handler, kept by libdbus as the notify function's data until it is freed.
    private final class Notify {
        /// Called once with the outcome.
        var handler: ((Result<BusMessage, BusError>) -> Void)?

        /// Makes the holder of `handler`.
        init(_ handler: @escaping (Result<BusMessage, BusError>) -> Void) {
            self.handler = handler
        }
    }

    /// The libdbus pending call; one reference belongs to this object.
    private let handle: OpaquePointer

    /// Takes over one reference to `handle`.
    private init(owning handle: OpaquePointer) {
        self.handle = handle
    }

    deinit {
        dbus_pending_call_unref(handle)
    }

    /// True once the reply (or the timeout's error) has arrived.
    public var isCompleted: Bool { dbus_pending_call_get_completed(handle) != 0 }

    /// Stops waiting: the handler will not be called and a late reply is dropped.
    public func cancel() {
        dbus_pending_call_cancel(handle)
    }

    /// Sends `message` on `connection` (its libdbus handle) and arranges for `handler`.
    static func start(
        _ message: BusMessage, on connection: OpaquePointer, timeoutMilliseconds: Int32,
        handler: @escaping (Result<BusMessage, BusError>) -> Void
    ) throws -> BusPendingCall {
        var pending: OpaquePointer?
        let sent = message.withUnsafeHandle { raw in
            dbus_connection_send_with_reply(connection, raw, &pending, timeoutMilliseconds)
        }
        message.markSent()
        guard sent != 0 else { throw BusError.noMemory("sending a method call") }
        // libdbus gives no pending call when the connection is already closed.
        guard let pending else {
            throw BusError(name: BusErrorName.disconnected, message: "the connection is closed")
        }
        let call = BusPendingCall(owning: pending)
        let data = Unmanaged.passRetained(Notify(handler)).toOpaque()
        let notifySet = dbus_pending_call_set_notify(
            pending,
            { pending, data in
                guard let pending, let data else { return }
                let notify = Unmanaged<Notify>.fromOpaque(data).takeUnretainedValue()
                guard let handler = notify.handler else { return }
                notify.handler = nil
                guard let reply = dbus_pending_call_steal_reply(pending) else {
                    handler(.failure(BusError(name: BusErrorName.noReply, message: "no reply arrived")))
                    return
                }
                let message = BusMessage.adopting(reply)
                if let error = message.busError {
                    handler(.failure(error))
                } else {
                    handler(.success(message))
                }
            }, data,
            { data in
                // libdbus frees the notify data with the pending call (or when it is replaced).
                guard let data else { return }
                Unmanaged<Notify>.fromOpaque(data).release()
            })
        guard notifySet != 0 else {
            Unmanaged<Notify>.fromOpaque(data).release()
            dbus_pending_call_cancel(pending)
            throw BusError.noMemory("arranging for a reply")
        }
        return call
    }
}

extension BusConnection {
    /// Sends the method call `message` without waiting; `replyHandler` gets the reply (or the
    /// error, `NoReply` after `timeoutMilliseconds`) from a later `dispatchAll()`.
    ///
    /// The timeout runs on the connection's main-loop integration: the loop must call
    /// `handleExpiredTimeouts()` (blocking `call` and `readMessage` do not need it).
    @discardableResult
    public func call(
        _ message: BusMessage, timeoutMilliseconds: Int32,
        replyHandler: @escaping (Result<BusMessage, BusError>) -> Void
    ) throws -> BusPendingCall {
        try BusConnection.checkCallable(message, timeoutMilliseconds: timeoutMilliseconds)
        return try withUnsafeHandle { connection in
            try BusPendingCall.start(
                message, on: connection, timeoutMilliseconds: timeoutMilliseconds, handler: replyHandler)
        }
    }
}
