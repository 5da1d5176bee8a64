// SPDX-License-Identifier: MIT
internal import CDBus
import Glibc

extension BusConnection {
    /// Dispatches every message already received: method calls to registered objects (and
    /// their replies), signals to signal handlers; returns when nothing is left.
    ///
    /// Calls to registered objects are served round-robin between senders (see
    /// `dispatchRound()`), each sender's in the order they came.
    public func dispatchAll() {
        guard !isDispatching else { return }
        isDispatching = true
        defer { isDispatching = false }
        repeat {
            serveOneRound()
        } while hasMessagesToDispatch && isConnected
        finishIfDisconnected()
    }

    /// Dispatches everything libdbus has read except calls to registered objects, which wait
    /// in one queue per sender; then serves the oldest waiting call of each sender, once.
    ///
    /// A loop that calls this once per turn does bounded work between two `poll`s (one call
    /// per sender), so its other descriptors are served, and a sender with a thousand calls
    /// waiting delays another sender's call by at most one of its own. While
    /// `hasMessagesToDispatch` is true, such a loop must poll with a zero timeout.
    public func dispatchRound() {
        guard !isDispatching else { return }
        isDispatching = true
        defer { isDispatching = false }
        serveOneRound()
        finishIfDisconnected()
    }

    /// True when messages were read and wait to be dispatched, or calls wait in the
    /// per-sender queues: `poll` cannot see them, so a loop must dispatch before it blocks.
    ///
    /// Blocking calls and `flush()` read while they wait.
    public var hasMessagesToDispatch: Bool {
        !callQueues.isEmpty
            || withUnsafeHandle { dbus_connection_get_dispatch_status($0) == DBUS_DISPATCH_DATA_REMAINS }
    }

    /// Lets libdbus dispatch what it has read (the filter queues the calls to registered
    /// objects), then serves one round of the queued calls.
    private func serveOneRound() {
        withUnsafeHandle { handle in
            while dbus_connection_get_dispatch_status(handle) == DBUS_DISPATCH_DATA_REMAINS {
                dbus_connection_dispatch(handle)
            }
        }
        for call in callQueues.nextRound() { serve(call) }
    }

    /// Ends what a dead connection leaves behind: waiting calls cannot be answered, and a call
    /// still waiting for a reply would wait for good.
    private func finishIfDisconnected() {
        guard !isConnected else { return }
        callQueues.removeAll()
        // Only once everything read (the `Disconnected` signal last) is dispatched.
        if !pendingReplies.isEmpty && !hasMessagesToDispatch { failPendingReplies() }
    }

    /// Puts `raw` in its sender's queue when it is a method call to a registered object; true
    /// when it was taken (queued, or refused for its sender's backlog).
    ///
    /// Called from the filter, after libdbus answered `org.freedesktop.DBus.Peer` itself;
    /// calls to other paths (introspection of parent paths, unknown objects) stay with libdbus.
    func queueCall(_ raw: OpaquePointer) -> Bool {
        guard dbus_message_get_type(raw) == DBUS_MESSAGE_TYPE_METHOD_CALL,
            let path = dbus_message_get_path(raw), registration(at: String(cString: path)) != nil
        else { return false }
        let sender = dbus_message_get_sender(raw).map { String(cString: $0) } ?? ""
        let call = BusMessage.retaining(raw)
        guard !callQueues.enqueue(call, from: sender, bytes: Self.estimatedBytes(of: raw)) else {
            return true
        }
        guard !call.noReplyExpected else { return true }
        let limit = callQueues.maximumBytesPerSender
        if let reply = try? BusMessage.error(
            replyingTo: call, name: BusErrorName.limitsExceeded,
            message: "more than \(limit) bytes of your calls wait to be served; wait for their replies "
                + "before sending more")
        {
            _ = try? send(reply)
        }
        return true
    }

    /// Serves a call taken from the per-sender queues with the object at its path.
    private func serve(_ call: BusMessage) {
        if let path = call.path, let registration = registration(at: path) {
            _ = registration.dispatch(call)
        } else if !call.noReplyExpected,
            let reply = try? BusMessage.error(
                replyingTo: call, name: "org.freedesktop.DBus.Error.UnknownObject",
                message: "the object at \(call.path ?? "?") was unregistered before the call was served")
        {
            _ = try? send(reply)
        }
    }

    /// A cheap estimate of what `raw` holds in memory: its top-level strings and arrays by
    /// their length, every other argument as 8 bytes, and 256 bytes for the header and
    /// bookkeeping (so that a flood of empty calls weighs too).
    static func estimatedBytes(of raw: OpaquePointer) -> Int {
        var bytes = 256
        var iterator = DBusMessageIter()
        guard dbus_message_iter_init(raw, &iterator) != 0 else { return bytes }
        repeat {
            // The type codes are characters (the header's macros do not import).
            let type = UInt8(truncatingIfNeeded: dbus_message_iter_get_arg_type(&iterator))
            if type == UInt8(ascii: "a") {
                bytes += Int(dbus_message_iter_get_array_len(&iterator))
            } else if type == UInt8(ascii: "s") || type == UInt8(ascii: "o") || type == UInt8(ascii: "g") {
                var text: UnsafePointer<CChar>? = nil
                dbus_message_iter_get_basic(&iterator, &text)
                bytes += text.map { strlen($0) } ?? 0
            } else {
                bytes += 8
            }
        } while dbus_message_iter_next(&iterator) != 0
        return bytes
    }
}
