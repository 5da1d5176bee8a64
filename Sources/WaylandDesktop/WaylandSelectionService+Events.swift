// SPDX-License-Identifier: MIT
import CWayland
import Glibc
import Posix

/// What the compositor sends, as `Listeners` hands it over: globals, offers and their
/// selections, and the requests for our sources' data.
extension WaylandSelectionService {
    func registryAnnounced(name: UInt32, interface: String, version: UInt32) {
        // The first seat is the user's; later ones (rare) are not followed.
        if globals[interface] == nil { globals[interface] = (name, version) }
    }

    func deviceIntroduced(_ handle: OpaquePointer) {
        guard
            let object = try? ProtocolObject.take(
                handle, of: display, making: "data_offer", destructor: { CWayland_offer_destroy($0) })
        else { return }
        CWayland_offer_add_listener(handle, Listeners.offer, selfPointer)
        introducedOffers[handle] = DataOffer(object: object, maximumTypes: configuration.maximumOfferedTypes)
    }

    func offerAnnounced(_ handle: OpaquePointer, mimeType: String) {
        if let offer = introducedOffers[handle] {
            offer.announce(mimeType)
        } else if let offer = offers.values.first(where: { $0.object.handle == handle }) {
            offer.announce(mimeType)
        }
    }

    func deviceSelected(_ handle: OpaquePointer?, as selection: WaylandSelectionName) {
        // The same offer named again stays; a new one was just introduced.
        let current = offers[selection].flatMap { $0.object.handle == handle ? $0 : nil }
        let offer = current ?? handle.flatMap { introducedOffers.removeValue(forKey: $0) }
        // An offer is named by the selection event right after its introduction: any other
        // one left is stale. Replacing the previous offer destroys it, as the protocol asks.
        introducedOffers = [:]
        offers[selection] = offer
    }

    func deviceFinished() {
        display.fail(.seatRemoved)
    }

    func sourceCancelled(_ handle: OpaquePointer) {
        guard let (selection, ownership) = ownerships.first(where: { $0.value.source.handle == handle })
        else { return }
        ownership.cancelled = true
        ownerships[selection] = nil
        if ownership.token != tokenBeingTaken {
            let token = ownership.token
            notices.append(.lost(selection, token))
        }
    }

    func sourceAsked(_ handle: OpaquePointer, mimeType: String, fileDescriptor fd: Int32) {
        guard let ownership = ownerships.values.first(where: { $0.source.handle == handle }) else {
            close(fd)
            return
        }
        let selection = ownership.selection
        guard let bytes = ownership.formats[mimeType] else {
            close(fd)
            report(
                WaylandTransfer(
                    selection: selection, mimeType: mimeType, bytesWritten: 0, byteCount: 0,
                    outcome: .typeNotOffered, keystrokesBefore: keystrokesHandled))
            return
        }
        guard transfers.count < max(configuration.maximumTransfers, 1), CWayland_set_nonblocking(fd) == 0
        else {
            close(fd)
            report(
                WaylandTransfer(
                    selection: selection, mimeType: mimeType, bytesWritten: 0, byteCount: bytes.count,
                    outcome: .tooManyTransfers, keystrokesBefore: keystrokesHandled))
            return
        }
        let now = MonotonicClock.milliseconds()
        let transfer = OutgoingTransfer(
            fileDescriptor: fd, selection: selection, mimeType: mimeType, bytes: bytes,
            deadline: now + UInt64(configuration.transferTimeoutMilliseconds),
            keystrokesBefore: keystrokesHandled, startedAt: now)
        transfers.append(transfer)
        do {
            try watcher.watch(fd, for: .writable)
        } catch {
            finish(transfer, .writeFailed(errno))
            return
        }
        advance(transfer, now: now)
    }

    /// Writes into every reader's pipe what it takes; drops the transfers past their deadline.
    func advanceTransfers(now: UInt64) {
        for transfer in transfers {
            advance(transfer, now: now)
            if now >= transfer.deadline, transfers.contains(where: { $0 === transfer }) {
                finish(transfer, .timedOut)
            }
        }
    }

    private func advance(_ transfer: OutgoingTransfer, now: UInt64) {
        let timeout = UInt64(configuration.transferTimeoutMilliseconds)
        if let outcome = transfer.write(
            chunk: max(configuration.transferChunkBytes, 1), now: now, timeout: timeout)
        {
            finish(transfer, outcome)
        }
    }

    func finish(_ transfer: OutgoingTransfer, _ outcome: WaylandTransfer.Outcome) {
        watcher.unwatch(transfer.fileDescriptor)
        transfers.removeAll { $0 === transfer }
        report(transfer.report(outcome))
    }

    private func report(_ transfer: WaylandTransfer) {
        notices.append(.transfer(transfer))
    }
}
