// SPDX-License-Identifier: MIT
internal import CDBus

extension BusConnection {
    /// Starts keeping `reply` until its handler runs.
    func track(_ reply: PendingReply) {
        pendingReplies[reply.serial] = reply
    }

    /// Stops keeping `reply`.
    func untrack(_ reply: PendingReply) {
        if pendingReplies[reply.serial] === reply { pendingReplies[reply.serial] = nil }
    }

    /// Completes the tracked call that `raw` answers when libdbus did not route it to the call
    /// (it forgets its pending calls at a disconnect); true when it did.
    func completeUnrouted(_ raw: OpaquePointer) -> Bool {
        let type = dbus_message_get_type(raw)
        guard type == DBUS_MESSAGE_TYPE_METHOD_RETURN || type == DBUS_MESSAGE_TYPE_ERROR,
            let reply = pendingReplies[dbus_message_get_reply_serial(raw)]
        else { return false }
        reply.complete(with: BusMessage.retaining(raw))
        return true
    }

    /// Fails every tracked call, oldest first, with `Disconnected`: the connection is gone,
    /// so no reply can come.
    func failPendingReplies() {
        let lost = pendingReplies.values.sorted { $0.serial < $1.serial }
        let error = BusError(
            name: BusErrorName.disconnected, message: "the connection was lost before the reply came")
        for reply in lost { reply.complete(.failure(error)) }
    }
}
