// SPDX-License-Identifier: MIT
import Quoting

/// Inserting, editing, deleting, moving and locating rows.
extension TableService {
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
        try checkTemplates(texts, in: table)
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
        try editCell(name, section: section, row: row, text: text, revision: 0)
    }

    /// Replaces a cell's text if the table is at `revision` (0: any), else refuses with
    /// `RevisionMismatch` and changes nothing; the new revision.
    @discardableResult
    public func editCell(_ name: String, section: Int32, row: Int32, text: String, revision: UInt64) throws
        -> UInt64
    {
        let table = try table(name, permitting: .edit)
        if revision != 0 && revision != table.record.revision {
            throw CliptabError(
                .revisionMismatch,
                "table \(Quotation.quoted(name)) changed since revision \(revision) (it is at revision \(table.record.revision)); nothing was changed"
            )
        }
        let (s, r) = try Self.path(table, section, row)
        try limits.checkCell(text)
        let old = table.sections[s].rows[r]
        try checkTemplate(text, in: table, rowName: table.names.name(of: old.id))
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
        return record.revision
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
}
