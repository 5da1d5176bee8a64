// SPDX-License-Identifier: MIT
import CliptabContract
import Quoting

/// Naming rows, and finding them by name.
extension TableService {
    /// Names the row at (section, row) `rowName`, or removes its name when `rowName` is empty;
    /// guarded by `edit`.
    public func setRowName(_ name: String, section: Int32, row: Int32, rowName: String) throws {
        let table = try table(name, permitting: .edit)
        let (s, r) = try Self.path(table, section, row)
        let target = table.sections[s].rows[r]
        if !rowName.isEmpty {
            try Self.checkRowName(rowName)
            if let holder = table.names.place(of: rowName), holder.rowID != target.id {
                throw CliptabError(
                    .nameInUse,
                    "another row of table \(Quotation.quoted(name)) (id \(holder.rowID)) is already named "
                        + Quotation.quoted(rowName))
            }
            // A name can close a cycle of snippets through this row.
            try checkTemplate(target.text, in: table, rowName: rowName)
        }
        let (record, bump) = bumped(table)
        try commit(
            [
                .setRowName(
                    tableID: table.record.id, sectionID: table.sections[s].id, rowID: target.id,
                    key: target.key,
                    name: rowName),
                bump,
            ],
            [
                .rowsChanged(
                    table: name, revision: record.revision,
                    paths: [IndexPath(section: Int32(s), row: Int32(r))])
            ])
    }

    /// The index path of the row named `rowName` in the table, or `NoSuchRow`.
    public func findRow(_ name: String, rowName: String) throws -> (path: IndexPath, id: UInt64) {
        let table = try table(name)
        guard let place = table.names.place(of: rowName), let path = Self.path(of: place, in: table) else {
            throw CliptabError(
                .noSuchRow, "no row of table \(Quotation.quoted(name)) is named \(Quotation.quoted(rowName))")
        }
        return (path, place.rowID)
    }

    /// (row id, name) of every named row of the table, in table order.
    ///
    /// Costs one step per section and one per named row (a dictionary lookup and a binary
    /// search each), then the sort: a walk over the sections for each name once made 400,000
    /// names in the last of 10,000 sections take 3.8 s.
    public func rowNames(of name: String) throws -> [(id: UInt64, name: String)] {
        try countedRowNames(of: name).names
    }

    /// `rowNames(of:)` and the steps it took: sections indexed plus named rows placed.
    func countedRowNames(of name: String) throws -> (names: [(id: UInt64, name: String)], steps: Int) {
        let table = try table(name)
        var sectionIndexes: [UInt64: Int] = [:]
        sectionIndexes.reserveCapacity(table.sections.count)
        for (index, section) in table.sections.enumerated() { sectionIndexes[section.id] = index }
        var steps = table.sections.count
        // One position word per name (section in the high half, row in the low one), sorted
        // in place: 32 bytes a name, where a copy of the entries and tuples of index paths
        // took twice that for 400,000 names.
        var found: [(position: UInt64, id: UInt64, name: String)] = []
        found.reserveCapacity(table.names.count)
        table.names.forEachEntry { rowName, place in
            steps += 1
            guard let s = sectionIndexes[place.sectionID],
                let r = table.sections[s].rows.index(ofKey: place.key, id: place.rowID)
            else { return }
            found.append((UInt64(s) << 32 | UInt64(r), place.rowID, rowName))
        }
        found.sort { $0.position < $1.position }
        return (found.map { ($0.id, $0.name) }, steps)
    }

    /// (row id, name) of the named rows among the rows of a section from `offset`, at most
    /// `limit` of them (0 = to the end), in row order: the window of `rows(of:section:offset:limit:)`.
    ///
    /// Costs one dictionary lookup per row of the window, whatever the rest of the table holds,
    /// so that a menu asks only for the names of the rows it shows.
    public func rowNames(of name: String, section: Int32, offset: UInt32, limit: UInt32) throws -> [(
        id: UInt64, name: String
    )] {
        let table = try table(name)
        let s = try Self.existing(section, count: table.sections.count, "section")
        let rows = table.sections[s].rows
        let start = Int(offset)
        guard start < rows.count, !table.names.isEmpty else { return [] }
        let end = limit == 0 ? rows.count : min(rows.count, start + Int(limit))
        var found: [(id: UInt64, name: String)] = []
        for index in start..<end {
            let id = rows[index].id
            if let rowName = table.names.name(of: id) { found.append((id, rowName)) }
        }
        return found
    }

    /// Throws `InvalidName` unless `rowName` follows the row-name grammar.
    static func checkRowName(_ rowName: String) throws {
        guard RowName.isValid(rowName) else {
            throw CliptabError(
                .invalidName,
                "\(Quotation.quoted(rowName)) is not a row name: 1–\(RowName.maxBytes) bytes of letters, digits, \"_\", \".\""
                    + " and \"-\", starting with a letter or \"_\"")
        }
    }

    /// The current index path of a named row: its section found by id among the table's
    /// sections, its row by binary search on its key.
    static func path(of place: RowNameIndex.Place, in table: Table) -> IndexPath? {
        guard let s = table.sections.firstIndex(where: { $0.id == place.sectionID }),
            let r = table.sections[s].rows.index(ofKey: place.key, id: place.rowID)
        else { return nil }
        return IndexPath(section: Int32(s), row: Int32(r))
    }
}
