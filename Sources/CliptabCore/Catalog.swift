// SPDX-License-Identifier: MIT

/// Every table of the store, in memory: the state that answers reads, and that applies
/// committed writes.
public struct Catalog: Sendable, Equatable {
    /// The tables by name.
    public private(set) var tables: [String: Table] = [:]
    /// Table names by table id.
    private var namesByID: [UInt64: String] = [:]
    /// The id counters.
    public private(set) var counters = Counters()

    /// Makes an empty catalog.
    public init() {}

    /// Makes a catalog of loaded tables and counters (the store's load path).
    public init(tables: [Table], counters: Counters) {
        for table in tables {
            self.tables[table.name] = table
            namesByID[table.record.id] = table.name
        }
        self.counters = counters
    }

    /// Table names sorted by the byte order of their UTF-8.
    public var tableNames: [String] {
        tables.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// The name of the table with id `id`, if there is one.
    public func name(ofTableID id: UInt64) -> String? { namesByID[id] }

    /// Applies committed writes, in order.
    public mutating func apply(_ writes: [StoreWrite]) {
        for write in writes { apply(write) }
    }

    // The writes were planned against this very state, so a missing table or row here is
    // a programming error, not bad input: preconditions say so.
    private mutating func withTable(_ id: UInt64, _ body: (inout Table) -> Void) {
        guard let name = namesByID[id], tables[name] != nil else {
            preconditionFailure("write for unknown table id \(id)")
        }
        body(&tables[name]!)
    }

    private static func sectionIndex(_ table: Table, _ id: UInt64) -> Int {
        guard let index = table.sections.firstIndex(where: { $0.id == id }) else {
            preconditionFailure("write for unknown section id \(id)")
        }
        return index
    }

    private mutating func apply(_ write: StoreWrite) {
        switch write {
        case .createTable(let record):
            tables[record.name] = Table(record: record)
            namesByID[record.id] = record.name
        case .updateTable(let record):
            guard let oldName = namesByID[record.id], var table = tables.removeValue(forKey: oldName) else {
                preconditionFailure("update of unknown table id \(record.id)")
            }
            table.record = record
            tables[record.name] = table
            namesByID[record.id] = record.name
        case .dropTable(let id):
            if let name = namesByID.removeValue(forKey: id) { tables[name] = nil }
        case .insertSection(let tableID, let id, let key, let header, let footer):
            withTable(tableID) { table in
                let position = table.sections.firstIndex { $0.key >= key } ?? table.sections.count
                table.sections.insert(Section(id: id, key: key, header: header, footer: footer), at: position)
            }
        case .setTitles(let tableID, let sectionID, let header, let footer):
            withTable(tableID) { table in
                let index = Self.sectionIndex(table, sectionID)
                table.sections[index].header = header
                table.sections[index].footer = footer
            }
        case .rekeySection(let tableID, let sectionID, let key):
            withTable(tableID) { table in
                var section = table.sections.remove(at: Self.sectionIndex(table, sectionID))
                section.key = key
                let position = table.sections.firstIndex { $0.key >= key } ?? table.sections.count
                table.sections.insert(section, at: position)
            }
        case .deleteSections(let tableID, let sectionIDs):
            withTable(tableID) { table in
                let doomed = Set(sectionIDs)
                table.sections.removeAll { doomed.contains($0.id) }
                table.names.removeSections(doomed)
            }
        case .insertRow(let tableID, let sectionID, let row):
            withTable(tableID) { table in
                let index = Self.sectionIndex(table, sectionID)
                let position = table.sections[index].rows.insertionIndex(forKey: row.key)
                table.sections[index].rows.insert(row, at: position)
            }
        case .setText(let tableID, let sectionID, let rowID, let key, let text):
            withTable(tableID) { table in
                let index = Self.sectionIndex(table, sectionID)
                guard let position = table.sections[index].rows.index(ofKey: key, id: rowID) else {
                    preconditionFailure("setText of unknown row \(rowID)")
                }
                table.sections[index].rows[position].text = text
            }
        case .moveRow(let tableID, let fromSectionID, let oldKey, let rowID, let toSectionID, let key):
            withTable(tableID) { table in
                let from = Self.sectionIndex(table, fromSectionID)
                guard let position = table.sections[from].rows.index(ofKey: oldKey, id: rowID) else {
                    preconditionFailure("move of unknown row \(rowID)")
                }
                var row = table.sections[from].rows.remove(at: position)
                row.key = key
                let to = Self.sectionIndex(table, toSectionID)
                let target = table.sections[to].rows.insertionIndex(forKey: key)
                table.sections[to].rows.insert(row, at: target)
                table.names.moved(rowID, to: toSectionID, key: key)
            }
        case .deleteRows(let tableID, let sectionID, let rowIDs, let keys):
            withTable(tableID) { table in
                let index = Self.sectionIndex(table, sectionID)
                if !table.names.isEmpty { for rowID in rowIDs { table.names.removeName(of: rowID) } }
                // Few rows: remove each by binary search; many: one filtering pass.
                if keys.count <= 32 {
                    for (rowID, key) in zip(rowIDs, keys) {
                        guard let position = table.sections[index].rows.index(ofKey: key, id: rowID) else {
                            preconditionFailure("delete of unknown row \(rowID)")
                        }
                        table.sections[index].rows.remove(at: position)
                    }
                } else {
                    let doomed = Set(rowIDs)
                    table.sections[index].rows.removeAll { doomed.contains($0.id) }
                }
            }
        case .setRowName(let tableID, let sectionID, let rowID, let key, let name):
            withTable(tableID) { table in
                table.names.setName(
                    name, at: RowNameIndex.Place(rowID: rowID, sectionID: sectionID, key: key))
            }
        case .setCounters(let counters):
            self.counters = counters
        }
    }
}
