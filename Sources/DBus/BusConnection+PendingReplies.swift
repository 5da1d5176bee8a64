// SPDX-License-Identifier: MIT
internal import CDBus

// The tracked calls are an array in serial order rather than a dictionary by serial: a
// connection seldom waits on more than a few calls, a binary search finds one, and a
// command-line client that makes one call then pays for no hashed table's generic types at
// start. Serials wrap at 2^32, so they are compared as the protocol's sequence numbers: one
// is before another when it is less than 2^31 behind it.
extension BusConnection {
    /// Starts keeping `reply` until its handler runs.
    func track(_ reply: PendingReply) {
        // Calls are sent in serial order, so this is the end but for a wrapped serial.
        pendingReplies.insert(reply, at: firstPendingIndex(notBefore: reply.serial))
    }

    /// Stops keeping `reply`.
    func untrack(_ reply: PendingReply) {
        if let index = pendingIndex(of: reply.serial), pendingReplies[index] === reply {
            pendingReplies.remove(at: index)
        }
    }

    /// The place of the tracked call `serial`, if it is tracked.
    private func pendingIndex(of serial: UInt32) -> Int? {
        let index = firstPendingIndex(notBefore: serial)
        return index < pendingReplies.count && pendingReplies[index].serial == serial ? index : nil
    }

    /// The index of the first tracked call whose serial is not before `serial`.
    private func firstPendingIndex(notBefore serial: UInt32) -> Int {
        var low = 0
        var high = pendingReplies.count
        while low < high {
            let middle = (low + high) / 2
            if Self.serial(pendingReplies[middle].serial, isBefore: serial) {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low
    }

    /// Whether `first` was sent before `second`, across the wrap at 2^32.
    static func serial(_ first: UInt32, isBefore second: UInt32) -> Bool {
        Int32(bitPattern: second &- first) > 0
    }

    /// Completes the tracked call that `raw` answers when libdbus did not route it to the call
    /// (it forgets its pending calls at a disconnect); true when it did.
    func completeUnrouted(_ raw: OpaquePointer) -> Bool {
        let type = dbus_message_get_type(raw)
        guard type == DBUS_MESSAGE_TYPE_METHOD_RETURN || type == DBUS_MESSAGE_TYPE_ERROR,
            let index = pendingIndex(of: dbus_message_get_reply_serial(raw))
        else { return false }
        pendingReplies[index].complete(with: BusMessage.retaining(raw))
        return true
    }

    /// Fails every tracked call, oldest first, with `Disconnected`: the connection is gone,
    /// so no reply can come.
    func failPendingReplies() {
        let lost = pendingReplies
        let error = BusError(
            name: BusErrorName.disconnected, message: "the connection was lost before the reply came")
        for reply in lost { reply.complete(.failure(error)) }
    }
}
