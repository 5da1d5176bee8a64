// SPDX-License-Identifier: MIT
import Quoting

/// Creating, renaming and dropping tables, and reading them.
extension TableService {
    /// The table names in UTF-8 byte order.
    public func listTables() -> [String] { catalog.tableNames }

    /// Creates an empty table with one section without titles.
    public func createTable(_ name: String) throws {
        try TableName.validate(name)
        if catalog.tables[name] != nil {
            throw CliptabError(.tableExists, "a table named \(Quotation.quoted(name)) already exists")
        }
        var counters = catalog.counters
        let record = TableRecord(
            id: counters.nextTableID, name: name, revision: 0, allowedActions: .all, isSecret: false)
        counters.nextTableID += 1
        let sectionID = counters.nextSectionID
        counters.nextSectionID += 1
        try commit(
            [
                .createTable(record),
                .insertSection(tableID: record.id, id: sectionID, key: 0, header: "", footer: ""),
                .setCounters(counters),
            ], [.tableAdded(name)])
    }

    /// Drops a table with everything in it.
    public func dropTable(_ name: String) throws {
        let table = try table(name)
        try commit([.dropTable(id: table.record.id)], [.tableRemoved(name)])
    }

    /// Renames a table; renaming to its own name changes nothing.
    public func renameTable(_ name: String, to newName: String) throws {
        let table = try table(name)
        try TableName.validate(newName)
        if newName == name { return }
        if catalog.tables[newName] != nil {
            throw CliptabError(.tableExists, "a table named \(Quotation.quoted(newName)) already exists")
        }
        var record = table.record
        record.name = newName
        try commit([.updateTable(record)], [.tableRenamed(from: name, to: newName)])
    }

    /// Header, footer and row count of each section.
    public func sections(of name: String) throws -> [(header: String, footer: String, rows: Int)] {
        try table(name).sections.map { ($0.header, $0.footer, $0.rows.count) }
    }

    /// Rows of a section from `offset`, at most `limit` (0 = all).
    public func rows(of name: String, section: Int32, offset: UInt32, limit: UInt32) throws -> [Row] {
        let table = try table(name)
        let s = try Self.existing(section, count: table.sections.count, "section")
        let rows = table.sections[s].rows
        return rows.slice(from: Int(offset), limit: limit == 0 ? rows.count : Int(limit))
    }

    /// One cell's text.
    public func cell(of name: String, section: Int32, row: Int32) throws -> String {
        let table = try table(name)
        let (s, r) = try Self.path(table, section, row)
        return table.sections[s].rows[r].text
    }

    /// A section's rows joined by `separator`, for `CopySection`.
    public func sectionText(
        of name: String, section: Int32, separator: String
    ) throws -> (text: String, isSecret: Bool) {
        let table = try table(name, permitting: .copy)
        let s = try Self.existing(section, count: table.sections.count, "section")
        var text = ""
        var first = true
        for row in table.sections[s].rows {
            if !first { text += separator }
            text += row.text
            first = false
            if text.utf8.count > limits.maxCellBytes {
                throw CliptabError(
                    .limitExceeded,
                    "the joined section is larger than the cell limit of \(limits.maxCellBytes) bytes")
            }
        }
        return (text, table.record.isSecret)
    }

    /// Throws unless table `name` exists, allows `action`, and has an insertion place at
    /// (section, row); used to refuse a paste before the clipboard is read.
    public func checkInsertion(_ name: String, section: Int32, row: Int32, as action: TableAction) throws {
        let table = try table(name, permitting: action)
        let s = try Self.existing(section, count: table.sections.count, "section")
        _ = try Self.insertion(row, count: table.sections[s].rows.count, "row")
    }

    /// The table's revision.
    public func revision(of name: String) throws -> UInt64 { try table(name).record.revision }

    /// The table's settings.
    public func record(of name: String) throws -> TableRecord { try table(name).record }
}
