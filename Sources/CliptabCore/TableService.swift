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
    /// Called once per committed change, in order, with the events for the signals.
    public var onEvent: (TableEvent) -> Void = { _ in }
    private let persistence: Persistence

    /// Makes a service over a loaded catalog and the persistence that it was loaded from.
    public init(catalog: Catalog, persistence: Persistence, limits: Limits = .defaults) {
        self.catalog = catalog
        self.persistence = persistence
        self.limits = limits
    }

    // MARK: - Committing

    /// Makes `writes` durable, applies them, then announces `events`.
    ///
    /// Storage errors keep their kind; anything else a persistence throws is a storage failure.
    private func commit(_ writes: [StoreWrite], _ events: [TableEvent]) throws {
        do {
            try persistence.commit(writes)
        } catch let error as CliptabError {
            throw error
        } catch {
            throw CliptabError(.storageFailure, "the change could not be saved: \(error)")
        }
        catalog.apply(writes)
        for event in events { onEvent(event) }
    }

    // MARK: - Lookups

    private func table(_ name: String) throws -> Table {
        guard let table = catalog.tables[name] else { throw CliptabError.noSuchTable(name) }
        return table
    }

    private func table(_ name: String, permitting action: TableAction) throws -> Table {
        let table = try self.table(name)
        try Self.check(table, permits: action)
        return table
    }

    private static func check(_ table: Table, permits action: TableAction) throws {
        guard table.record.allowedActions.allows(action) else {
            let allowed = table.record.allowedActions.actions.map(\.rawValue).joined(separator: " ")
            throw CliptabError(
                .notPermitted,
                "table \"\(table.name)\" does not allow \"\(action.rawValue)\" (allowed: \(allowed.isEmpty ? "none" : allowed))"
            )
        }
    }

    /// The position of an existing element: `-1` is the last.
    private static func existing(_ index: Int32, count: Int, _ what: String) throws -> Int {
        let resolved = index < 0 ? Int(index) + count : Int(index)
        guard resolved >= 0 && resolved < count else {
            throw CliptabError.indexOutOfRange(what, index: index, count: count)
        }
        return resolved
    }

    /// An insertion position: `0…count`, or `-1` for the end.
    private static func insertion(_ index: Int32, count: Int, _ what: String) throws -> Int {
        if index == -1 { return count }
        guard index >= 0 && Int(index) <= count else {
            throw CliptabError.indexOutOfRange(what, index: index, count: count, insertion: true)
        }
        return Int(index)
    }

    private static func path(_ table: Table, _ section: Int32, _ row: Int32) throws -> (Int, Int) {
        let s = try existing(section, count: table.sections.count, "section")
        let r = try existing(row, count: table.sections[s].rows.count, "row")
        return (s, r)
    }

    private func bumped(_ table: Table) -> (TableRecord, StoreWrite) {
        var record = table.record
        record.revision += 1
        return (record, .updateTable(record))
    }

    // MARK: - Tables

    /// The table names in UTF-8 byte order.
    public func listTables() -> [String] { catalog.tableNames }

    /// Creates an empty table with one section without titles.
    public func createTable(_ name: String) throws {
        try TableName.validate(name)
        if catalog.tables[name] != nil {
            throw CliptabError(.tableExists, "a table named \"\(name)\" already exists")
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
            throw CliptabError(.tableExists, "a table named \"\(newName)\" already exists")
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

    /// The cell's text and row id, for a copy guarded by `action` (`copy`, or `cut`).
    public func cellForCopy(
        of name: String, section: Int32, row: Int32, as action: TableAction = .copy
    ) throws -> (text: String, id: UInt64, isSecret: Bool) {
        let table = try table(name, permitting: action)
        let (s, r) = try Self.path(table, section, row)
        let cell = table.sections[s].rows[r]
        return (cell.text, cell.id, table.record.isSecret)
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

    // MARK: - Sections

    /// Inserts an empty section at `index` (`-1` appends); returns its final index.
    @discardableResult
    public func insertSection(_ name: String, at index: Int32, header: String, footer: String) throws -> Int32
    {
        let table = try table(name, permitting: .insert)
        try limits.checkCell(header, what: "header")
        try limits.checkCell(footer, what: "footer")
        let position = try Self.insertion(index, count: table.sections.count, "section")
        try checkSectionRoom(table, adding: 1)
        var counters = catalog.counters
        let id = counters.nextSectionID
        counters.nextSectionID += 1
        var writes = placeSection(table, id: id, at: position, header: header, footer: footer)
        let (record, bump) = bumped(table)
        writes += [bump, .setCounters(counters)]
        try commit(
            writes,
            [.sectionsInserted(table: name, revision: record.revision, sections: [Int32(position)])])
        return Int32(position)
    }

    private func checkSectionRoom(_ table: Table, adding count: Int) throws {
        if table.sections.count + count > limits.maxSectionsPerTable {
            throw CliptabError(
                .limitExceeded,
                "table \"\(table.name)\" would have \(table.sections.count + count) sections; the limit is \(limits.maxSectionsPerTable)"
            )
        }
    }

    private func checkRowRoom(_ table: Table, adding count: Int) throws {
        let rows = table.rowCount
        if rows + count > limits.maxRowsPerTable {
            throw CliptabError(
                .limitExceeded,
                "table \"\(table.name)\" would have \(rows + count) rows; the limit is \(limits.maxRowsPerTable)"
            )
        }
    }

    /// The writes that put a new section at `position`, re-keying neighbours if needed.
    private func placeSection(_ table: Table, id: UInt64, at position: Int, header: String, footer: String)
        -> [StoreWrite]
    {
        let sections = table.sections
        let plan = OrderKeys.plan(count: sections.count, insertAt: position) { sections[$0].key }
        var writes: [StoreWrite] = plan.rekeyed.map {
            .rekeySection(tableID: table.record.id, sectionID: sections[$0.index].id, key: $0.key)
        }
        writes.append(
            .insertSection(tableID: table.record.id, id: id, key: plan.key, header: header, footer: footer))
        return writes
    }

    /// Deletes sections (with their rows) by their indexes before the batch; all or nothing.
    public func deleteSections(_ name: String, _ indexes: [Int32]) throws {
        let table = try table(name, permitting: .delete)
        var resolved: [Int] = []
        var seen = Set<Int>()
        for index in indexes {
            let position = try Self.existing(index, count: table.sections.count, "section")
            if !seen.insert(position).inserted {
                throw CliptabError(
                    .invalidArgument, "section \(position) is named twice in the batch (index \(index))")
            }
            resolved.append(position)
        }
        resolved.sort()
        let (record, bump) = bumped(table)
        var writes: [StoreWrite] = []
        if !resolved.isEmpty {
            writes.append(
                .deleteSections(tableID: table.record.id, sectionIDs: resolved.map { table.sections[$0].id }))
        }
        writes.append(bump)
        try commit(
            writes,
            [.sectionsDeleted(table: name, revision: record.revision, sections: resolved.map { Int32($0) })])
    }

    /// Moves a section: removes it at `from`, then inserts it so that its final index is `to`.
    public func moveSection(_ name: String, from: Int32, to: Int32) throws {
        let table = try table(name, permitting: .move)
        let count = table.sections.count
        let source = try Self.existing(from, count: count, "section")
        let target = try Self.existing(to, count: count, "destination section")
        var remaining = table.sections
        let moving = remaining.remove(at: source)
        let plan = OrderKeys.plan(count: remaining.count, insertAt: target) { remaining[$0].key }
        var writes: [StoreWrite] = plan.rekeyed.map {
            .rekeySection(tableID: table.record.id, sectionID: remaining[$0.index].id, key: $0.key)
        }
        writes.append(.rekeySection(tableID: table.record.id, sectionID: moving.id, key: plan.key))
        let (record, bump) = bumped(table)
        writes.append(bump)
        try commit(
            writes,
            [.sectionMoved(table: name, revision: record.revision, from: Int32(source), to: Int32(target))])
    }

    /// Sets a section's header title (empty = none).
    public func setHeader(_ name: String, section: Int32, text: String) throws {
        try setTitles(name, section: section) { $0.header = text }
    }

    /// Sets a section's footer title (empty = none).
    public func setFooter(_ name: String, section: Int32, text: String) throws {
        try setTitles(name, section: section) { $0.footer = text }
    }

    private func setTitles(_ name: String, section: Int32, _ change: (inout Section) -> Void) throws {
        let table = try table(name, permitting: .edit)
        let s = try Self.existing(section, count: table.sections.count, "section")
        var updated = table.sections[s]
        change(&updated)
        try limits.checkCell(updated.header, what: "header")
        try limits.checkCell(updated.footer, what: "footer")
        let (record, bump) = bumped(table)
        try commit(
            [
                .setTitles(
                    tableID: table.record.id, sectionID: updated.id, header: updated.header,
                    footer: updated.footer),
                bump,
            ], [.sectionChanged(table: name, revision: record.revision, section: Int32(s))])
    }

    /// The index of the first section whose header is exactly `header`.
    public func findSection(_ name: String, header: String) throws -> Int32 {
        let table = try table(name)
        guard let index = table.sections.firstIndex(where: { $0.header.utf8.elementsEqual(header.utf8) })
        else {
            throw CliptabError(
                .noSuchSection, "table \"\(name)\" has no section with the header \"\(header)\"")
        }
        return Int32(index)
    }

    // MARK: - Rows

    /// Inserts one row at (section, row) (`row` -1 appends), guarded by `action`
    /// (`insert`, or `paste`); returns its id.
    @discardableResult
    public func insertRow(
        _ name: String, section: Int32, row: Int32, text: String, as action: TableAction = .insert
    ) throws -> UInt64 {
        try insertRows(name, section: section, row: row, texts: [text], as: action)[0]
    }

    /// Inserts rows in order starting at (section, row); returns their ids.
    @discardableResult
    public func insertRows(
        _ name: String, section: Int32, row: Int32, texts: [String], as action: TableAction = .insert
    ) throws -> [UInt64] {
        let table = try table(name, permitting: action)
        let s = try Self.existing(section, count: table.sections.count, "section")
        let start = try Self.insertion(row, count: table.sections[s].rows.count, "row")
        for text in texts { try limits.checkCell(text) }
        try checkRowRoom(table, adding: texts.count)
        var counters = catalog.counters
        var writes: [StoreWrite] = []
        var ids: [UInt64] = []
        // Plan against a scratch copy of the section, so that each row's key sees the
        // rows inserted before it.
        var scratch = table.sections[s].rows
        for (offset, text) in texts.enumerated() {
            let position = start + offset
            let rows = scratch
            let plan = OrderKeys.plan(count: rows.count, insertAt: position) { rows[$0].key }
            for rekey in plan.rekeyed {
                let old = rows[rekey.index]
                writes.append(
                    .moveRow(
                        tableID: table.record.id, fromSectionID: table.sections[s].id, oldKey: old.key,
                        rowID: old.id, toSectionID: table.sections[s].id, key: rekey.key))
            }
            // Re-keying never reorders, so the scratch copy can take the new keys in place.
            for rekey in plan.rekeyed { scratch[rekey.index].key = rekey.key }
            let new = Row(id: counters.nextRowID, key: plan.key, text: text)
            counters.nextRowID += 1
            scratch.insert(new, at: position)
            writes.append(.insertRow(tableID: table.record.id, sectionID: table.sections[s].id, row: new))
            ids.append(new.id)
        }
        let (record, bump) = bumped(table)
        writes += [bump, .setCounters(counters)]
        let paths = (0..<texts.count).map { IndexPath(section: Int32(s), row: Int32(start + $0)) }
        try commit(writes, [.rowsInserted(table: name, revision: record.revision, paths: paths)])
        return ids
    }

    /// Replaces a cell's text.
    public func setCell(_ name: String, section: Int32, row: Int32, text: String) throws {
        let table = try table(name, permitting: .edit)
        let (s, r) = try Self.path(table, section, row)
        try limits.checkCell(text)
        let old = table.sections[s].rows[r]
        let (record, bump) = bumped(table)
        try commit(
            [
                .setText(
                    tableID: table.record.id, sectionID: table.sections[s].id, rowID: old.id, key: old.key,
                    text: text),
                bump,
            ],
            [
                .rowsChanged(
                    table: name, revision: record.revision,
                    paths: [IndexPath(section: Int32(s), row: Int32(r))])
            ]
        )
    }

    /// Deletes one row, guarded by `action` (`delete`, or `cut`).
    public func deleteRow(_ name: String, section: Int32, row: Int32, as action: TableAction = .delete) throws
    {
        try deleteRows(name, sections: [section], rows: [row], as: action)
    }

    /// Deletes rows by their index paths before the batch (parallel arrays); all or nothing.
    public func deleteRows(
        _ name: String, sections: [Int32], rows: [Int32], as action: TableAction = .delete
    ) throws {
        let table = try table(name, permitting: action)
        guard sections.count == rows.count else {
            throw CliptabError(
                .invalidArgument,
                "sections and rows must be parallel arrays of the same length (got \(sections.count) and \(rows.count))"
            )
        }
        var paths: [IndexPath] = []
        var seen = Set<IndexPath>()
        for (section, row) in zip(sections, rows) {
            let (s, r) = try Self.path(table, section, row)
            let path = IndexPath(section: Int32(s), row: Int32(r))
            if !seen.insert(path).inserted {
                throw CliptabError(.invalidArgument, "row \(path) is named twice in the batch")
            }
            paths.append(path)
        }
        try deletePaths(table, paths.sorted())
    }

    /// Commits the deletion of `paths` (sorted, valid, distinct).
    private func deletePaths(_ table: Table, _ paths: [IndexPath]) throws {
        try commitDeletion(table, paths.map { ($0, table.sections[Int($0.section)].rows[Int($0.row)]) })
    }

    /// Commits the deletion of `doomed` (sorted by path, valid, distinct), whose rows the
    /// caller already holds: a scan that found them need not look each up again by index.
    private func commitDeletion(_ table: Table, _ doomed: [(path: IndexPath, row: Row)]) throws {
        var writes: [StoreWrite] = []
        var index = 0
        while index < doomed.count {
            let s = Int(doomed[index].path.section)
            var ids: [UInt64] = []
            var keys: [Int64] = []
            while index < doomed.count && Int(doomed[index].path.section) == s {
                ids.append(doomed[index].row.id)
                keys.append(doomed[index].row.key)
                index += 1
            }
            writes.append(
                .deleteRows(
                    tableID: table.record.id, sectionID: table.sections[s].id, rowIDs: ids, keys: keys))
        }
        let (record, bump) = bumped(table)
        writes.append(bump)
        try commit(
            writes, [.rowsDeleted(table: table.name, revision: record.revision, paths: doomed.map(\.path))])
    }

    /// Deletes every row that matches `op operand` in every section; returns the paths from before the
    /// deletion.
    ///
    /// A dry run deletes nothing and changes no revision.
    public func deleteWhere(_ name: String, op: String, operand: String, dryRun: Bool) throws -> [IndexPath] {
        let table = try table(name, permitting: .delete)
        let predicate = try RowPredicate(operator: op, operand: operand)
        var budget = MatchBudget(steps: MatchBudget.defaultSteps)
        var matches: [(path: IndexPath, row: Row)] = []
        for (s, section) in table.sections.enumerated() {
            var r: Int32 = 0
            for row in section.rows {
                if try predicate.matches(row.text, budget: &budget) {
                    matches.append((IndexPath(section: Int32(s), row: r), row))
                }
                r += 1
            }
        }
        if !dryRun { try commitDeletion(table, matches) }
        return matches.map(\.path)
    }

    /// Moves a row: removes it at (fromSection, fromRow), then inserts it so that its final
    /// path is (toSection, toRow); `toRow` may be the destination's count after the removal,
    /// or -1, to append.
    public func moveRow(_ name: String, from: (section: Int32, row: Int32), to: (section: Int32, row: Int32))
        throws
    {
        let table = try table(name, permitting: .move)
        let (fs, fr) = try Self.path(table, from.section, from.row)
        let ts = try Self.existing(to.section, count: table.sections.count, "destination section")
        var destination = table.sections[ts].rows
        let moving = table.sections[fs].rows[fr]
        if ts == fs { destination.remove(at: fr) }
        let tr = try Self.insertion(to.row, count: destination.count, "destination row")
        let rows = destination
        let plan = OrderKeys.plan(count: rows.count, insertAt: tr) { rows[$0].key }
        let target = table.sections[ts].id
        var writes: [StoreWrite] = plan.rekeyed.map {
            .moveRow(
                tableID: table.record.id, fromSectionID: target, oldKey: rows[$0.index].key,
                rowID: rows[$0.index].id, toSectionID: target, key: $0.key)
        }
        writes.append(
            .moveRow(
                tableID: table.record.id, fromSectionID: table.sections[fs].id, oldKey: moving.key,
                rowID: moving.id, toSectionID: target, key: plan.key))
        let (record, bump) = bumped(table)
        writes.append(bump)
        try commit(
            writes,
            [
                .rowMoved(
                    table: name, revision: record.revision,
                    from: IndexPath(section: Int32(fs), row: Int32(fr)),
                    to: IndexPath(section: Int32(ts), row: Int32(tr)))
            ])
    }

    /// Finds a row by its id: the table and its current index path.
    public func locate(_ id: UInt64) throws -> (table: String, path: IndexPath) {
        for (name, table) in catalog.tables {
            for (s, section) in table.sections.enumerated() {
                var r: Int32 = 0
                for row in section.rows {
                    if row.id == id { return (name, IndexPath(section: Int32(s), row: r)) }
                    r += 1
                }
            }
        }
        throw CliptabError(.noSuchRow, "no row has the id \(id)")
    }

    // MARK: - Actions and settings

    /// The context menu of a cell: the allowed actions in the contract's order.
    public func actions(_ name: String, section: Int32, row: Int32) throws -> [TableAction] {
        let table = try table(name)
        _ = try Self.path(table, section, row)
        return table.record.allowedActions.actions
    }

    /// Whether `action` may be performed on the cell.
    public func canPerform(_ name: String, action: String, section: Int32, row: Int32) throws -> Bool {
        let parsed = try TableAction(parsing: action)
        let table = try table(name)
        _ = try Self.path(table, section, row)
        return table.record.allowedActions.allows(parsed)
    }

    /// Sets the table's allowed actions (each name must be valid).
    public func setAllowedActions(_ name: String, _ actions: [String]) throws {
        let table = try table(name)
        var parsed: [TableAction] = []
        for action in actions { parsed.append(try TableAction(parsing: action)) }
        var record = table.record
        record.allowedActions = ActionSet(parsed)
        try commit([.updateTable(record)], [])
    }

    /// Marks the table secret or not.
    public func setSecret(_ name: String, _ isSecret: Bool) throws {
        var record = try table(name).record
        record.isSecret = isSecret
        try commit([.updateTable(record)], [])
    }

    // MARK: - Exchange

    /// The table in an exchange format.
    public func export(_ name: String, format: String) throws -> String {
        let parsed = try ExchangeFormat(parsing: format)
        let table = try table(name)
        let exchange = ExchangeTable(
            name: name,
            sections: table.sections.map { section in
                ExchangeSection(
                    header: section.header, footer: section.footer,
                    rows: section.rows.map { ExchangeRow(id: $0.id, text: $0.text) })
            })
        return try ExchangeCodec.encode(exchange, as: parsed)
    }

    /// Imports `data` as new sections appended to the table (created if missing; `replace`
    /// drops the old content first), atomically; returns the number of rows imported.
    public func importTable(_ name: String, format: String, data: String, replace: Bool) throws -> UInt32 {
        let parsed = try ExchangeFormat(parsing: format)
        let imported = try ExchangeCodec.decode(data, as: parsed, tableName: name)
        var counters = catalog.counters
        var writes: [StoreWrite] = []
        var events: [TableEvent] = []
        var existingSections: [Section] = []
        var record: TableRecord
        var createdByImport = false
        if let table = catalog.tables[name] {
            try Self.check(table, permits: .insert)
            record = table.record
            existingSections = table.sections
        } else {
            try TableName.validate(name)
            record = TableRecord(
                id: counters.nextTableID, name: name, revision: 0, allowedActions: .all, isSecret: false)
            counters.nextTableID += 1
            writes.append(.createTable(record))
            events.append(.tableAdded(name))
            // TableAdded means "a table with one empty section" to a client that follows the
            // signals; an imported table has only its imported sections, so that section
            // is announced as gone at once.
            createdByImport = true
        }
        for section in imported.sections {
            try limits.checkCell(section.header, what: "header")
            try limits.checkCell(section.footer, what: "footer")
            for row in section.rows { try limits.checkCell(row.text) }
        }
        record.revision += 1
        if createdByImport {
            events.append(.sectionsDeleted(table: name, revision: record.revision, sections: [0]))
        }
        if replace && !existingSections.isEmpty {
            writes.append(.deleteSections(tableID: record.id, sectionIDs: existingSections.map(\.id)))
            events.append(
                .sectionsDeleted(
                    table: name, revision: record.revision,
                    sections: (0..<existingSections.count).map { Int32($0) }))
            existingSections = []
        }
        let rowTotal = imported.sections.reduce(0) { $0 + $1.rows.count }
        let kept = existingSections.reduce(0) { $0 + $1.rows.count }
        if kept + rowTotal > limits.maxRowsPerTable {
            throw CliptabError(
                .limitExceeded,
                "the import would give table \"\(name)\" \(kept + rowTotal) rows; the limit is \(limits.maxRowsPerTable)"
            )
        }
        if existingSections.count + imported.sections.count > limits.maxSectionsPerTable {
            throw CliptabError(
                .limitExceeded,
                "the import would give table \"\(name)\" \(existingSections.count + imported.sections.count) sections; the limit is \(limits.maxSectionsPerTable)"
            )
        }
        // New sections go after the kept ones, rows in order: plain ascending keys.
        var sectionKey = (existingSections.last?.key ?? -OrderKeys.spacing) + OrderKeys.spacing
        var insertedSections: [Int32] = []
        var insertedRows: [IndexPath] = []
        for section in imported.sections {
            let sectionID = counters.nextSectionID
            counters.nextSectionID += 1
            writes.append(
                .insertSection(
                    tableID: record.id, id: sectionID, key: sectionKey, header: section.header,
                    footer: section.footer
                ))
            let index = Int32(existingSections.count + insertedSections.count)
            insertedSections.append(index)
            sectionKey += OrderKeys.spacing
            var rowKey: Int64 = 0
            for (r, row) in section.rows.enumerated() {
                writes.append(
                    .insertRow(
                        tableID: record.id, sectionID: sectionID,
                        row: Row(id: counters.nextRowID, key: rowKey, text: row.text)))
                counters.nextRowID += 1
                rowKey += OrderKeys.spacing
                insertedRows.append(IndexPath(section: index, row: Int32(r)))
            }
        }
        writes += [.updateTable(record), .setCounters(counters)]
        events.append(.sectionsInserted(table: name, revision: record.revision, sections: insertedSections))
        events.append(.rowsInserted(table: name, revision: record.revision, paths: insertedRows))
        try commit(writes, events)
        return UInt32(rowTotal)
    }
}
