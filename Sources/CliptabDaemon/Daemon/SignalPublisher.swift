// SPDX-License-Identifier: MIT
import CliptabContract
import CliptabCore
import DBus

/// Announces what changed on the bus: each committed change and each change of the
/// clipboard as its typed signal, and the properties they change with PropertiesChanged.
///
/// A signal that cannot be sent is logged and ignored: the change itself is committed.
final class SignalPublisher: ChangeAnnouncer {
    private let bus: BusConnection
    /// Set at the shutdown: what follows (the clipboard's hand-over) is no change to announce.
    private var isMuted = false

    /// Makes a publisher on `bus`.
    init(bus: BusConnection) {
        self.bus = bus
    }

    /// Sends nothing from now on.
    func mute() { isMuted = true }

    /// Publishes a committed change; a change of the table list also changes `Tables`.
    func announce(_ event: TableEvent, catalog: Catalog) {
        guard !isMuted else { return }
        emit(CliptabSignal(event))
        switch event {
        case .tableAdded, .tableRemoved, .tableRenamed:
            propertiesChanged(["Tables": CliptabInterface.tablesValue(catalog.tableNames)])
        case .sectionsInserted, .sectionsDeleted, .sectionMoved, .sectionChanged, .rowsInserted, .rowsDeleted,
            .rowMoved, .rowsChanged:
            break
        }
    }

    /// Publishes a change of this daemon's hold on the clipboard, and of the two properties
    /// that show it.
    func announceClipboard(owned: Bool, rowID: UInt64) {
        guard !isMuted else { return }
        emit(CliptabSignal.clipboard(owned: owned, rowID: rowID))
        propertiesChanged([
            "ClipboardOwned": .boolean(owned),
            "ClipboardRowId": CliptabInterface.clipboardRowIDValue(owned: owned, rowID: rowID),
        ])
    }

    /// Publishes where the sequence is now, or that none runs.
    func announceSequence(_ status: SequenceStatus?) {
        guard !isMuted else { return }
        emit(CliptabSignal.sequence(status))
    }

    private func emit(_ signal: CliptabSignal) {
        do {
            try bus.emit(
                signal.declaration, from: CliptabBus.path, interface: CliptabBus.interface,
                values: signal.values)
        } catch {
            Log.line("Failed to emit \(signal.declaration.name): \(error), ignoring", level: .warning)
        }
    }

    private func propertiesChanged(_ changed: [String: BusValue]) {
        do {
            try bus.emitPropertiesChanged(
                path: CliptabBus.path, interface: CliptabBus.interface, changed: changed)
        } catch {
            Log.line("Failed to emit PropertiesChanged: \(error), ignoring", level: .warning)
        }
    }
}
