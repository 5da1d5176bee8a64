// SPDX-License-Identifier: MIT

/// Where some tables have a copy that leads (a linked table's file), which every change
/// made through the service must reach before it is acknowledged.
///
/// Given to `TableService` at `init`; the daemon's linked tables implement it. Called on the
/// service's one thread, around each commit of a change.
public protocol TableMirror: AnyObject {
    /// Whether `table` has a copy to keep in step.
    func isMirrored(_ table: String) -> Bool
    /// Throws to refuse a change to `table` before anything is written (its copy cannot be
    /// read, so it must not be overwritten); `renamedTo` is the new name of a rename, and
    /// `dropped` says the table is dropped.
    func checkChange(to table: String, renamedTo: String?, dropped: Bool) throws
    /// Writes `table`'s copy as `document`; called before the store commits the change, so
    /// a failure changes nothing. A table that is secret after the change (`isSecret`) must
    /// get no copy.
    func write(_ table: String, document: TableDocument, isSecret: Bool) throws
}
