// SPDX-License-Identifier: MIT

/// What applying a document changed (or, in a dry run, would change).
public struct ApplyCounts: Equatable, Sendable {
    /// Rows that moved (within or between sections).
    public var rowsMoved = 0
    /// Rows whose text or name changed.
    public var rowsChanged = 0
    /// Rows added.
    public var rowsAdded = 0
    /// Rows deleted.
    public var rowsDeleted = 0
    /// Sections that moved.
    public var sectionsMoved = 0
    /// Sections whose header or footer changed.
    public var sectionsChanged = 0
    /// Sections added.
    public var sectionsAdded = 0
    /// Sections deleted.
    public var sectionsDeleted = 0
    /// Settings (templates flag, allowed actions) changed.
    public var settingsChanged = 0

    /// No counts.
    public init() {}

    /// True when nothing changed.
    public var isEmpty: Bool { self == ApplyCounts() }

    /// True when rows or sections changed (not only settings): the revision moves.
    public var changesContent: Bool {
        var content = self
        content.settingsChanged = 0
        return !content.isEmpty
    }

    /// The counts by their contract names (`rows_moved`, …, `settings_changed`).
    public var named: [(name: String, count: Int)] {
        [
            ("rows_moved", rowsMoved), ("rows_changed", rowsChanged), ("rows_added", rowsAdded),
            ("rows_deleted", rowsDeleted), ("sections_moved", sectionsMoved),
            ("sections_changed", sectionsChanged), ("sections_added", sectionsAdded),
            ("sections_deleted", sectionsDeleted), ("settings_changed", settingsChanged),
        ]
    }
}
