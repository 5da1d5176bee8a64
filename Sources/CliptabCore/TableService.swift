// SPDX-License-Identifier: MIT

/// The operations of the contract over the catalog: every read, and every change planned as writes, made
/// durable by the persistence, and only then applied in memory and announced.
///
/// A call that throws has changed nothing, in memory or on disk.
public final class TableService {
    /// The tables as committed.
    public private(set) var catalog: Catalog
    /// The limits on names, cells, rows and sections.
    public var limits: Limits
    private let persistence: Persistence
    /// Reads and writes the table file's format (`yaml`); nil where no codec is linked.
    let documentCodec: TableDocumentCodec?
    /// The copies that lead (linked tables' files), written before each change to them is
    /// committed; nil where no table has one.
    private let mirror: TableMirror?
    /// Told once per committed change, in order, with the event for the signals and the
    /// catalog as that change left it.
    private let announce: (TableEvent, Catalog) -> Void

    /// Makes a service over a loaded catalog and the persistence that it was loaded from,
    /// telling `announce` every committed change (`{ _, _ in }` where nobody listens), and
    /// reading and writing table files with `documentCodec`, and writing the tables `mirror`
    /// keeps a copy of before each of their changes is committed.
    public init(
        catalog: Catalog, persistence: Persistence, limits: Limits = .defaults,
        documentCodec: TableDocumentCodec? = nil, mirror: TableMirror? = nil,
        announce: @escaping (TableEvent, Catalog) -> Void
    ) {
        self.catalog = catalog
        self.documentCodec = documentCodec
        self.mirror = mirror
        self.persistence = persistence
        self.limits = limits
        self.announce = announce
    }

    /// Makes `writes` durable, applies them, then announces `events`.
    ///
    /// Storage errors keep their kind; anything else a persistence throws is a storage failure.
    func commit(_ writes: [StoreWrite], _ events: [TableEvent]) throws {
        let mirrored = try writeMirrors(writes)
        do {
            try persistence.commit(writes)
        } catch let error as CliptabError {
            throw error
        } catch {
            throw CliptabError(.storageFailure, "the change could not be saved: \(error)")
        }
        if let mirrored { catalog = mirrored } else { catalog.apply(writes) }
        for event in events { announce(event, catalog) }
    }

    /// Checks and writes the mirrored copies of the tables `writes` change; the catalog
    /// they make when some table was mirrored, else nil (nothing written).
    ///
    /// The copy leads: it is written first, so that a refused or failed write changes
    /// nothing, and a crash between it and the commit leaves a copy that the next start
    /// applies.
    private func writeMirrors(_ writes: [StoreWrite]) throws -> Catalog? {
        guard let mirror else { return nil }
        var touched: [String] = []
        var renames: [String: String] = [:]
        var drops: Set<String> = []
        for write in writes {
            let id: UInt64
            switch write {
            case .createTable, .setCounters: continue
            case .updateTable(let record):
                id = record.id
                if let old = catalog.name(ofTableID: id), old != record.name { renames[old] = record.name }
            case .dropTable(let table):
                id = table
                if let old = catalog.name(ofTableID: id) { drops.insert(old) }
            case .insertSection(let table, _, _, _, _), .setTitles(let table, _, _, _),
                .rekeySection(let table, _, _), .deleteSections(let table, _), .insertRow(let table, _, _),
                .setText(let table, _, _, _, _), .moveRow(let table, _, _, _, _, _),
                .deleteRows(let table, _, _, _), .setRowName(let table, _, _, _, _):
                id = table
            }
            if let name = catalog.name(ofTableID: id), mirror.isMirrored(name), !touched.contains(name) {
                touched.append(name)
            }
        }
        guard !touched.isEmpty else { return nil }
        for name in touched {
            try mirror.checkChange(to: name, renamedTo: renames[name], dropped: drops.contains(name))
        }
        var after = catalog
        after.apply(writes)
        for name in touched {
            guard let table = after.tables[name] else { continue }
            try mirror.write(name, document: Self.document(of: table), isSecret: table.record.isSecret)
        }
        return after
    }

    // MARK: - Lookups

    /// The table named `name`, or `NoSuchTable`.
    func table(_ name: String) throws -> Table {
        guard let table = catalog.tables[name] else { throw CliptabError.noSuchTable(name) }
        return table
    }

    /// The table named `name` if it allows `action`; `NoSuchTable` or `NotPermitted` otherwise.
    func table(_ name: String, permitting action: TableAction) throws -> Table {
        let table = try self.table(name)
        try Self.check(table, permits: action)
        return table
    }

    /// Throws `NotPermitted`, naming the allowed actions, unless `table` allows `action`.
    static func check(_ table: Table, permits action: TableAction) throws {
        guard table.record.allowedActions.allows(action) else {
            let allowed = table.record.allowedActions.actions.map(\.rawValue).joined(separator: " ")
            throw CliptabError(
                .notPermitted,
                "table \"\(table.name)\" does not allow \"\(action.rawValue)\" (allowed: \(allowed.isEmpty ? "none" : allowed))"
            )
        }
    }

    /// The position of an existing element: `-1` is the last.
    static func existing(_ index: Int32, count: Int, _ what: String) throws -> Int {
        let resolved = index < 0 ? Int(index) + count : Int(index)
        guard resolved >= 0 && resolved < count else {
            throw CliptabError.indexOutOfRange(what, index: index, count: count)
        }
        return resolved
    }

    /// An insertion position: `0…count`, or `-1` for the end.
    static func insertion(_ index: Int32, count: Int, _ what: String) throws -> Int {
        if index == -1 { return count }
        guard index >= 0 && Int(index) <= count else {
            throw CliptabError.indexOutOfRange(what, index: index, count: count, insertion: true)
        }
        return Int(index)
    }

    /// The positions of an existing row: negative indexes count from the end.
    static func path(_ table: Table, _ section: Int32, _ row: Int32) throws -> (Int, Int) {
        let s = try existing(section, count: table.sections.count, "section")
        let r = try existing(row, count: table.sections[s].rows.count, "row")
        return (s, r)
    }

    /// The table's record with the next revision, and the write that stores it.
    func bumped(_ table: Table) -> (TableRecord, StoreWrite) {
        var record = table.record
        record.revision += 1
        return (record, .updateTable(record))
    }
}
