// SPDX-License-Identifier: MIT

/// A committed change, as the contract's signals describe it.
///
/// Applying the events in order to a copy of the table's structure gives the table's new structure (UIKit's
/// batch-update contract). No event carries cell text.
public enum TableEvent: Equatable, Sendable {
    /// A table was created, with one empty section (a table created by an import then
    /// gets a SectionsDeleted of that section in the same change).
    case tableAdded(String)
    /// A table was dropped.
    case tableRemoved(String)
    /// A table was renamed.
    case tableRenamed(from: String, to: String)
    /// Empty sections were inserted at these final indexes (ascending).
    case sectionsInserted(table: String, revision: UInt64, sections: [Int32])
    /// Sections were deleted; indexes from before the deletion (ascending).
    case sectionsDeleted(table: String, revision: UInt64, sections: [Int32])
    /// A section moved: removed at `from`, then inserted so that its final index is `to`.
    case sectionMoved(table: String, revision: UInt64, from: Int32, to: Int32)
    /// A section's titles changed.
    case sectionChanged(table: String, revision: UInt64, section: Int32)
    /// Rows were inserted at these final index paths (ascending).
    case rowsInserted(table: String, revision: UInt64, paths: [IndexPath])
    /// Rows were deleted; paths from before the deletion (ascending).
    case rowsDeleted(table: String, revision: UInt64, paths: [IndexPath])
    /// A row moved: removed at `from`, then inserted so that its final path is `to`.
    case rowMoved(table: String, revision: UInt64, from: IndexPath, to: IndexPath)
    /// The text of these rows changed.
    case rowsChanged(table: String, revision: UInt64, paths: [IndexPath])
}
