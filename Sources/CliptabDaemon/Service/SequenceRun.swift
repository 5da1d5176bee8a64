// SPDX-License-Identifier: MIT

/// One sequence: the rows to offer one paste at a time, where it is, and what goes back on
/// the clipboard at its end.
final class SequenceRun {
    /// One row of the sequence, its text filled in when it began.
    struct Item {
        /// The row's id.
        let rowID: UInt64
        /// The text offered.
        let text: String
        /// True when offered with the password-manager hint.
        let isSecret: Bool
    }

    /// The rows, in order.
    let items: [Item]
    /// The table, section and header it came from, for its status.
    let table: String
    let section: Int32
    let header: String
    /// The index of the row on the clipboard now.
    var index = 0
    /// The ownership of the row offered now; nil while the clipboard before is read.
    var stamp: OwnershipStamp?
    /// What the clipboard held before the sequence, to put back at its end.
    var previous: PasteRun.Previous?
    /// Which reads are pastes.
    var rule: SequencePasteRule
    /// After a paste: when the pasting window has been quiet long enough to offer the next.
    var settleDeadline: UInt64?
    /// The reader of that paste (nil: anonymous), whose further reads push the settle back.
    var pastedBy: UInt64?
    /// When the sequence ends for want of use.
    var idleDeadline: UInt64

    /// True when any row is secret: the end clears it as a secret's clear does.
    var isSecret: Bool { items.contains { $0.isSecret } }

    init(items: [Item], table: String, section: Int32, header: String, now: UInt64, idleDeadline: UInt64) {
        self.items = items
        self.table = table
        self.section = section
        self.header = header
        rule = SequencePasteRule(offeredAt: now)
        self.idleDeadline = idleDeadline
    }

    /// Where it is.
    var status: SequenceStatus {
        SequenceStatus(
            table: table, section: section, header: header, position: index + 1, count: items.count)
    }
}
