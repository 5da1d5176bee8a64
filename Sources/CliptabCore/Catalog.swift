// SPDX-License-Identifier: MIT

/// A section of a table: optional header and footer titles and ordered rows.
public struct Section: Equatable, Sendable {
    /// The store's id of the section (internal; not part of the API).
    public var id: UInt64
    /// The sparse order key that sorts the section within its table in the store.
    public var key: Int64
    /// The header title; empty = none.
    public var header: String
    /// The footer title; empty = none.
    public var footer: String
    /// The rows, in order.
    public var rows: RowList

    /// Makes a section.
    public init(id: UInt64, key: Int64, header: String, footer: String, rows: RowList = RowList()) {
        self.id = id
        self.key = key
        self.header = header
        self.footer = footer
        self.rows = rows
    }
}

/// A table's settings and identity, as the store keeps them.
public struct TableRecord: Equatable, Sendable {
    /// The store's id of the table (stable across renames).
    public var id: UInt64
    /// The table's unique name.
    public var name: String
    /// +1 for every call that changed the content.
    public var revision: UInt64
    /// The context-menu actions clients may perform.
    public var allowedActions: ActionSet
    /// Whether copies are secret (password-manager hint, cleared after a timeout).
    public var isSecret: Bool

    /// Makes a record.
    public init(id: UInt64, name: String, revision: UInt64, allowedActions: ActionSet, isSecret: Bool) {
        self.id = id
        self.name = name
        self.revision = revision
        self.allowedActions = allowedActions
        self.isSecret = isSecret
    }
}

/// A named table: its record and ordered sections.
public struct Table: Equatable, Sendable {
    /// Identity and settings.
    public var record: TableRecord
    /// The sections, in order.
    public var sections: [Section]

    /// Makes a table.
    public init(record: TableRecord, sections: [Section] = []) {
        self.record = record
        self.sections = sections
    }

    /// The table's name.
    public var name: String { record.name }
    /// The number of rows in all sections.
    public var rowCount: Int { sections.reduce(0) { $0 + $1.rows.count } }
}

/// The id counters of the store, persisted with every change that uses them, so that an
/// id is never given twice, not even after a crash.
public struct Counters: Equatable, Sendable {
    /// The next row id to give.
    public var nextRowID: UInt64
    /// The next section id to give.
    public var nextSectionID: UInt64
    /// The next table id to give.
    public var nextTableID: UInt64

    /// Makes counters.
    public init(nextRowID: UInt64 = 1, nextSectionID: UInt64 = 1, nextTableID: UInt64 = 1) {
        self.nextRowID = nextRowID
        self.nextSectionID = nextSectionID
        self.nextTableID = nextTableID
    }
}

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
    /// The new id counters.
    case setCounters(Counters)
}

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
            }
        case .deleteRows(let tableID, let sectionID, let rowIDs, let keys):
            withTable(tableID) { table in
                let index = Self.sectionIndex(table, sectionID)
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
        case .setCounters(let counters):
            self.counters = counters
        }
    }
}
