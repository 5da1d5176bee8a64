// SPDX-License-Identifier: MIT
import CliptabContract

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
    public func rowNames(of name: String) throws -> [(id: UInt64, name: String)] {
        let table = try table(name)
        var found: [(path: IndexPath, id: UInt64, name: String)] = []
        for (rowName, place) in table.names.entries {
            if let path = Self.path(of: place, in: table) { found.append((path, place.rowID, rowName)) }
        }
        return found.sorted { $0.path < $1.path }.map { ($0.id, $0.name) }
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
