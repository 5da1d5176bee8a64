// SPDX-License-Identifier: MIT
import Quoting

/// Inserting, deleting, moving and titling sections.
extension TableService {
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

    /// Throws `LimitExceeded` unless `table` has room for `count` more rows.
    func checkRowRoom(_ table: Table, adding count: Int) throws {
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
                .noSuchSection,
                "table \(Quotation.quoted(name)) has no section with the header \(Quotation.quoted(header))")
        }
        return Int32(index)
    }
}
