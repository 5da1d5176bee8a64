// SPDX-License-Identifier: MIT
import CliptabCore

/// Where the use cases announce what changed: each committed change of the tables, and each
/// change of this daemon's hold on the clipboard.
///
/// Given to the tables and the clipboard at their `init` (the tables take `announce(_:catalog:)`
/// as their closure), so that a daemon without one does not compile: the bus's signals in
/// `cliptabd` (`SignalPublisher`), a recorder in tests.
public protocol ChangeAnnouncer: AnyObject {
    /// Announces a committed change, in commit order, with the catalog it left.
    func announce(_ event: TableEvent, catalog: Catalog)
    /// Announces that this daemon now holds the clipboard or not, with the copied row's id
    /// (0: none, a section copy, or another program's content put back).
    func announceClipboard(owned: Bool, rowID: UInt64)
    /// Announces where the running sequence is now, or (nil) that none runs any more.
    func announceSequence(_ status: SequenceStatus?)
}
