// SPDX-License-Identifier: MIT

/// A (section, row) index path.
public struct IndexPath: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The section index.
    public var section: Int32
    /// The row index within the section.
    public var row: Int32

    /// Makes an index path.
    public init(section: Int32, row: Int32) {
        self.section = section
        self.row = row
    }

    /// Orders by section, then row.
    public static func < (lhs: IndexPath, rhs: IndexPath) -> Bool {
        (lhs.section, lhs.row) < (rhs.section, rhs.row)
    }

    /// "S:R".
    public var description: String { "\(section):\(row)" }
}

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

/// Where committed changes are made durable.
///
/// The store implements it; tests use `MemoryPersistence`.
public protocol Persistence: AnyObject {
    /// Makes `writes` durable as one transaction, or throws `StorageFailure` having changed
    /// nothing.
    func commit(_ writes: [StoreWrite]) throws
}

/// An in-memory persistence for tests: records every committed batch and can be told to
/// fail, to prove that a failed commit changes nothing.
public final class MemoryPersistence: Persistence {
    /// Every batch committed so far.
    public private(set) var committed: [[StoreWrite]] = []
    /// When set, the next commit throws this error instead of committing (then clears).
    public var failNextCommit: CliptabError?

    /// Makes an empty recorder.
    public init() {}

    /// Records `writes`, or throws the injected failure.
    public func commit(_ writes: [StoreWrite]) throws {
        if let failure = failNextCommit {
            failNextCommit = nil
            throw failure
        }
        committed.append(writes)
    }
}
