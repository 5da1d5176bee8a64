// SPDX-License-Identifier: MIT
/// Writes replies into requestors' properties — incrementally (ICCCM §2.7.2, INCR) when
/// they are larger than one chunk — and drives the incremental transfers in flight.
///
/// Transfers are keyed by (requestor window, property), never by window or property alone,
/// so any number run at once and a requestor that stalls or vanishes costs only its own
/// transfer. Each transfer holds its own reference to the bytes, so it finishes even after
/// ownership is lost or released.
final class ReplyWriter {
    private struct TransferKey: Hashable {
        let requestor: WindowID
        let property: InternedAtom
    }

    private struct Transfer {
        let type: InternedAtom
        let data: WipingBuffer
        var offset: Int
        var deadline: UInt64
        let whenComplete: (() -> Void)?
    }

    private let connection: DisplayConnection
    private let ownWindow: WindowID
    private let atoms: KnownAtoms
    private let chunkBytes: Int
    private let timeoutMilliseconds: UInt64
    private let maximumTransfers: Int
    private let maximumPerClient: Int
    private var transfers: [TransferKey: Transfer] = [:]

    /// Makes a writer that sends chunks of at most `chunkBytes` and drops a transfer that
    /// stalls for `timeoutMilliseconds`; at most `maximumTransfers` run at once, at most
    /// `maximumPerClient` to the windows of one X client.
    init(
        connection: DisplayConnection, ownWindow: WindowID, atoms: KnownAtoms, chunkBytes: Int,
        timeoutMilliseconds: Int, maximumTransfers: Int, maximumPerClient: Int
    ) {
        self.maximumTransfers = max(maximumTransfers, 1)
        self.maximumPerClient = max(maximumPerClient, 1)
        self.connection = connection
        self.ownWindow = ownWindow
        self.atoms = atoms
        self.chunkBytes = chunkBytes
        self.timeoutMilliseconds = UInt64(max(timeoutMilliseconds, 1))
    }

    /// The number of incremental transfers in flight.
    var activeCount: Int { transfers.count }

    /// The bytes of the buffers the transfers in flight hold, a buffer that several share
    /// counted once.
    var heldBytes: Int {
        var seen: Set<ObjectIdentifier> = []
        var total = 0
        for transfer in transfers.values where seen.insert(ObjectIdentifier(transfer.data)).inserted {
            total += transfer.data.count
        }
        return total
    }

    /// The earliest inactivity deadline of a transfer, if any.
    var nextDeadline: UInt64? { transfers.values.map(\.deadline).min() }

    /// Writes `reply` into `property` of `requestor`, incrementally when over one chunk.
    ///
    /// False when the server reported an error (the caller then refuses the conversion).
    /// `whenComplete` runs once the requestor has the whole reply: at once for a single
    /// property, after the last chunk for INCR (never, when the transfer is dropped).
    func write(
        _ reply: Reply, requestor: WindowID, property: InternedAtom, now: UInt64,
        whenComplete: (() -> Void)? = nil
    ) -> Bool {
        let key = TransferKey(requestor: requestor, property: property)
        // A new request into the same property means the requestor abandoned the old one.
        if transfers[key] != nil { drop(key) }
        var incremental: WipingBuffer?
        if case .bytes(_, let buffer) = reply, buffer.count > chunkBytes { incremental = buffer }
        // A transfer costs bookkeeping and events, not a copy (the bytes are shared), but a
        // requestor that never reads keeps it for the whole timeout: bounded in number, so
        // one client flooding requests is refused while others are served.
        if incremental != nil && !hasRoomForTransfer(to: requestor) { return false }
        do {
            try connection.checked {
                switch reply {
                case .longs(let type, let values):
                    connection.changeProperty(requestor, property, type: type, longs: values)
                case .bytes(let type, let buffer) where incremental == nil:
                    buffer.withBytes { connection.changeProperty(requestor, property, type: type, bytes: $0) }
                case .bytes(_, let buffer):
                    // ICCCM §2.7.2: listen for the requestor deleting the property (each
                    // deletion asks for the next chunk) and for its window going away.
                    if requestor != ownWindow {
                        connection.listenForTransfer(on: requestor)
                    }
                    // The INCR value is a lower bound on the size, as one C long.
                    connection.changeProperty(
                        requestor, property, type: atoms.incremental, longs: [UInt(buffer.count)])
                }
            }
        } catch {
            if incremental != nil { deselectIfIdle(requestor) }
            return false
        }
        if case .bytes(let type, let buffer) = reply, incremental != nil {
            transfers[key] = Transfer(
                type: type, data: buffer, offset: 0, deadline: now + timeoutMilliseconds,
                whenComplete: whenComplete)
        } else {
            whenComplete?()
        }
        return true
    }

    /// True when one more transfer to `requestor` stays within both caps.
    private func hasRoomForTransfer(to requestor: WindowID) -> Bool {
        guard transfers.count < maximumTransfers else { return false }
        let mask = connection.resourceMask
        let client = requestor.rawValue & ~mask
        var count = 0
        for key in transfers.keys where key.requestor.rawValue & ~mask == client {
            count += 1
            if count >= maximumPerClient { return false }
        }
        return true
    }

    /// Sends the next chunk when the requestor deleted `property` of `window`.
    ///
    /// After the last chunk, a zero-length property of the same type ends the transfer.
    /// False when the event is not about a transfer.
    func propertyDeleted(window: WindowID, property: InternedAtom, now: UInt64) -> Bool {
        let key = TransferKey(requestor: window, property: property)
        guard var transfer = transfers[key] else { return false }
        let start = transfer.offset
        var end = min(start + chunkBytes, transfer.data.count)
        if end < transfer.data.count
            && (transfer.type == atoms.utf8String || transfer.type == atoms.plainTextUTF8)
        {
            // Never split a UTF-8 character across chunks: ICCCM allows it, but Tk 8.6
            // decodes each chunk on its own and garbles a character cut in two.
            transfer.data.withBytes { all in
                while end > start + 1 && end - start > chunkBytes - 3 && all[end] & 0xC0 == 0x80 { end -= 1 }
            }
        }
        // Unchecked, unlike the first reply: waiting for the server after every chunk would
        // cost a round trip each. A requestor that vanished mid-transfer sends no more
        // PropertyNotify; its DestroyNotify (or the inactivity timeout) ends the transfer.
        transfer.data.withBytes { all in
            connection.changeProperty(
                window, property, type: transfer.type,
                bytes: UnsafeRawBufferPointer(rebasing: all[start..<end]))
        }
        if start == end {
            transfers[key] = nil
            deselectIfIdle(window)
            transfer.whenComplete?()
        } else {
            transfer.offset = end
            transfer.deadline = now + timeoutMilliseconds
            transfers[key] = transfer
        }
        return true
    }

    /// Drops every transfer to `window`, which was destroyed.
    func windowDestroyed(_ window: WindowID) {
        transfers = transfers.filter { $0.key.requestor != window }
    }

    /// Drops transfers whose requestor has not asked for the next chunk in time.
    func expire(now: UInt64) {
        for (key, transfer) in transfers where transfer.deadline <= now {
            drop(key)
        }
    }

    /// Forgets every transfer without talking to the server (the connection is broken).
    func forgetAll() {
        transfers = [:]
    }

    private func drop(_ key: TransferKey) {
        transfers[key] = nil
        deselectIfIdle(key.requestor)
    }

    /// Stops listening to `requestor` once no transfer to it remains (our own window keeps
    /// its mask).
    private func deselectIfIdle(_ requestor: WindowID) {
        guard requestor != ownWindow, !transfers.keys.contains(where: { $0.requestor == requestor }) else {
            return
        }
        // Unchecked: the window may already be gone, and a BadWindow here changes nothing.
        connection.stopListening(to: requestor)
    }
}
