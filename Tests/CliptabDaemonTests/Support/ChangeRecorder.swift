// SPDX-License-Identifier: MIT
import CliptabCore
import CliptabDaemon

/// An announcer that records what the bus would announce, in order.
final class ChangeRecorder: ChangeAnnouncer {
    /// One announced change of the hold on the clipboard.
    struct ClipboardChange: Equatable {
        /// Whether this daemon holds the clipboard.
        let owned: Bool
        /// The copied row's id, or 0.
        let rowID: UInt64
    }

    /// Every committed change, in order.
    private(set) var events: [TableEvent] = []
    /// Every change of the hold on the clipboard, in order.
    private(set) var clipboardChanges: [ClipboardChange] = []
    /// Every move of a sequence (nil: it ended), in order.
    private(set) var sequenceChanges: [SequenceStatus?] = []

    /// Records a committed change.
    func announce(_ event: TableEvent, catalog: Catalog) { events.append(event) }

    /// Records a change of the hold on the clipboard.
    func announceClipboard(owned: Bool, rowID: UInt64) {
        clipboardChanges.append(ClipboardChange(owned: owned, rowID: rowID))
    }

    /// Records a move of a sequence.
    func announceSequence(_ status: SequenceStatus?) { sequenceChanges.append(status) }
}
