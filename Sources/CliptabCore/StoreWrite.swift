// SPDX-License-Identifier: MIT

/// One primitive change of the stored state.
///
/// A call is planned as a list of these; the store applies the list in one transaction and, only once that
/// has committed, the in-memory catalog applies the very same list, so memory and disk cannot disagree.
public enum StoreWrite: Equatable, Sendable {
    /// A new table, without sections.
    case createTable(TableRecord)
    /// New settings, name or revision of an existing table.
    case updateTable(TableRecord)
    /// Remove a table with its sections and rows.
    case dropTable(id: UInt64)
    /// A new section (without rows) at the place its key gives.
    case insertSection(tableID: UInt64, id: UInt64, key: Int64, header: String, footer: String)
    /// New titles of a section.
    case setTitles(tableID: UInt64, sectionID: UInt64, header: String, footer: String)
    /// A section's new key (moves it, or re-spaces it in place).
    case rekeySection(tableID: UInt64, sectionID: UInt64, key: Int64)
    /// Remove sections with their rows.
    case deleteSections(tableID: UInt64, sectionIDs: [UInt64])
    /// A new row at the place its key gives.
    case insertRow(tableID: UInt64, sectionID: UInt64, row: Row)
    /// New text of a row.
    case setText(tableID: UInt64, sectionID: UInt64, rowID: UInt64, key: Int64, text: String)
    /// A row's new section and key (moves it, or re-spaces it in place).
    case moveRow(
        tableID: UInt64, fromSectionID: UInt64, oldKey: Int64, rowID: UInt64, toSectionID: UInt64, key: Int64)
    /// Remove rows of one section; `keys` are theirs, in any order.
    case deleteRows(tableID: UInt64, sectionID: UInt64, rowIDs: [UInt64], keys: [Int64])
    /// A row's new name; an empty `name` removes it (the row's section and key locate it for the
    /// in-memory index).
    case setRowName(tableID: UInt64, sectionID: UInt64, rowID: UInt64, key: Int64, name: String)
    /// The new id counters.
    case setCounters(Counters)
}
