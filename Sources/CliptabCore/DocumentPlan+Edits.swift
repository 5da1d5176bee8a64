// SPDX-License-Identifier: MIT

/// The store writes and the events of a plan.
struct DocumentEdits {
    /// The writes, in an order the catalog and the store can apply.
    var writes: [StoreWrite] = []
    /// The events, in the order a replica follows.
    var events: [TableEvent] = []
    /// The id counters after the new sections and rows.
    var counters: Counters
}

/// An entry of the section list while the edits are made: a document section (a matched
/// table section or a new one) or a table section that goes.
private enum WorkSection: Equatable {
    case kept(Int)
    case doomed(Int)
}

extension DocumentPlan {
    /// The edits that make the table (whose record becomes `record`) equal to the document.
    ///
    /// Events, in order, each valid for the state the ones before it left: rows deleted,
    /// sections moved, sections inserted, rows moved, sections deleted, rows inserted, rows
    /// changed, sections changed.
    func edits(record: TableRecord, counters: Counters) -> DocumentEdits {
        var edits = DocumentEdits(counters: counters)
        let (tableID, name, revision) = (record.id, record.name, record.revision)
        let doc = document.sections

        // Rows that no document row is.
        var deletedPaths: [IndexPath] = []
        for (s, section) in table.sections.enumerated() {
            var ids: [UInt64] = []
            var keys: [Int64] = []
            for f in sectionStart[s]..<sectionStart[s + 1] where !rowMatched[f] {
                ids.append(rows[f].id)
                keys.append(rows[f].key)
                deletedPaths.append(IndexPath(section: Int32(s), row: Int32(f - sectionStart[s])))
            }
            if !ids.isEmpty {
                edits.writes.append(
                    .deleteRows(tableID: tableID, sectionID: section.id, rowIDs: ids, keys: keys))
            }
        }
        if !deletedPaths.isEmpty {
            edits.events.append(.rowsDeleted(table: name, revision: revision, paths: deletedPaths))
        }

        // Sections into the document's order: a moving section goes right after the one that
        // precedes it in the document; doomed sections stay where they are until the rows
        // they hand on have left.
        var work: [WorkSection] = table.sections.indices.map {
            tableSectionDoc[$0] >= 0 ? .kept(tableSectionDoc[$0]) : .doomed($0)
        }
        var previousMatched = -1
        for j in doc.indices where sectionMatch[j] >= 0 {
            defer { previousMatched = j }
            guard !sectionStays[j] else { continue }
            let from = work.firstIndex(of: .kept(j))!
            work.remove(at: from)
            let to = previousMatched < 0 ? 0 : work.firstIndex(of: .kept(previousMatched))! + 1
            work.insert(.kept(j), at: to)
            edits.events.append(
                .sectionMoved(table: name, revision: revision, from: Int32(from), to: Int32(to)))
        }
        var inserted: [Int] = []
        for j in doc.indices where sectionMatch[j] < 0 {
            work.insert(.kept(j), at: j == 0 ? 0 : work.firstIndex(of: .kept(j - 1))! + 1)
            inserted.append(j)
        }
        var workIndex = [Int](repeating: 0, count: doc.count)
        var doomedIndexes: [Int32] = []
        var doomedAt = [Int](repeating: 0, count: table.sections.count)
        for (index, entry) in work.enumerated() {
            switch entry {
            case .kept(let j): workIndex[j] = index
            case .doomed(let i):
                doomedAt[i] = index
                doomedIndexes.append(Int32(index))
            }
        }
        if !inserted.isEmpty {
            edits.events.append(
                .sectionsInserted(
                    table: name, revision: revision, sections: inserted.map { Int32(workIndex[$0]) }))
        }
        let sectionIDs = placeSections(&edits, tableID: tableID)

        // Rows into place, then the emptied sections out.
        var slots = RowSlots(plan: self)
        var rowKeys: [[Int64]] = []
        for j in doc.indices {
            let keys = placeRows(j, sectionID: sectionIDs[j], tableID: tableID, writes: &edits.writes)
            rowKeys.append(keys)
            for (p, f) in rowMatch[j].enumerated() where f >= 0 && !rowStays[j][p] {
                let source = sectionOfRow[f]
                let sourceIndex =
                    tableSectionDoc[source] >= 0 ? workIndex[tableSectionDoc[source]] : doomedAt[source]
                let (from, to) = slots.move(f, from: source, to: j)
                edits.events.append(
                    .rowMoved(
                        table: name, revision: revision,
                        from: IndexPath(section: Int32(sourceIndex), row: Int32(from)),
                        to: IndexPath(section: Int32(workIndex[j]), row: Int32(to))))
                edits.writes.append(
                    .moveRow(
                        tableID: tableID, fromSectionID: table.sections[source].id, oldKey: rows[f].key,
                        rowID: rows[f].id, toSectionID: sectionIDs[j], key: keys[p]))
            }
        }
        if !doomedIndexes.isEmpty {
            let ids = table.sections.indices.filter { tableSectionDoc[$0] < 0 }.map { table.sections[$0].id }
            edits.writes.append(.deleteSections(tableID: tableID, sectionIDs: ids))
            edits.events.append(.sectionsDeleted(table: name, revision: revision, sections: doomedIndexes))
        }
        finishRows(&edits, record: record, sectionIDs: sectionIDs, rowKeys: rowKeys)
        return edits
    }

    /// New rows, names, texts and titles, at their final places.
    private func finishRows(
        _ edits: inout DocumentEdits, record: TableRecord, sectionIDs: [UInt64], rowKeys: [[Int64]]
    ) {
        let (tableID, name, revision) = (record.id, record.name, record.revision)
        let doc = document.sections
        var insertedPaths: [IndexPath] = []
        var changedPaths: [IndexPath] = []
        var nameSets: [StoreWrite] = []
        // Names are unique in the store at every step: every name a row loses goes first.
        for (j, section) in doc.enumerated() {
            for (p, row) in section.rows.enumerated() {
                let f = rowMatch[j][p]
                let key = rowKeys[j][p]
                let path = IndexPath(section: Int32(j), row: Int32(p))
                if f < 0 {
                    let id = edits.counters.nextRowID
                    edits.counters.nextRowID += 1
                    edits.writes.append(
                        .insertRow(
                            tableID: tableID, sectionID: sectionIDs[j],
                            row: Row(id: id, key: key, text: row.text)))
                    if !row.name.isEmpty {
                        nameSets.append(
                            .setRowName(
                                tableID: tableID, sectionID: sectionIDs[j], rowID: id, key: key,
                                name: row.name))
                    }
                    insertedPaths.append(path)
                    continue
                }
                guard rowChanged(j, p) else { continue }
                changedPaths.append(path)
                if rows[f].text != row.text {
                    edits.writes.append(
                        .setText(
                            tableID: tableID, sectionID: sectionIDs[j], rowID: rows[f].id, key: key,
                            text: row.text))
                }
                if rowNames[f] != row.name {
                    let write = StoreWrite.setRowName(
                        tableID: tableID, sectionID: sectionIDs[j], rowID: rows[f].id, key: key,
                        name: row.name)
                    if row.name.isEmpty {
                        edits.writes.append(write)
                    } else {
                        if !rowNames[f].isEmpty {
                            edits.writes.append(
                                .setRowName(
                                    tableID: tableID, sectionID: sectionIDs[j], rowID: rows[f].id, key: key,
                                    name: ""))
                        }
                        nameSets.append(write)
                    }
                }
            }
        }
        edits.writes += nameSets
        if !insertedPaths.isEmpty {
            edits.events.append(.rowsInserted(table: name, revision: revision, paths: insertedPaths))
        }
        if !changedPaths.isEmpty {
            edits.events.append(.rowsChanged(table: name, revision: revision, paths: changedPaths))
        }
        for (j, section) in doc.enumerated() where sectionMatch[j] >= 0 {
            let old = table.sections[sectionMatch[j]]
            guard old.header != section.header || old.footer != section.footer else { continue }
            edits.writes.append(
                .setTitles(
                    tableID: tableID, sectionID: old.id, header: section.header, footer: section.footer))
            edits.events.append(.sectionChanged(table: name, revision: revision, section: Int32(j)))
        }
    }

    /// Keys for the sections in the document's order (staying ones keep theirs), the
    /// writes for new and moved sections; the section id of each document section.
    private func placeSections(_ edits: inout DocumentEdits, tableID: UInt64) -> [UInt64] {
        let doc = document.sections
        let kept: [Int64?] = doc.indices.map { sectionStays[$0] ? table.sections[sectionMatch[$0]].key : nil }
        let keys = keysBetweenKept(kept) ?? doc.indices.map { Int64($0) * OrderKeys.spacing }
        var ids: [UInt64] = []
        for (j, section) in doc.enumerated() {
            let i = sectionMatch[j]
            if i < 0 {
                let id = edits.counters.nextSectionID
                edits.counters.nextSectionID += 1
                edits.writes.append(
                    .insertSection(
                        tableID: tableID, id: id, key: keys[j], header: section.header, footer: section.footer
                    ))
                ids.append(id)
            } else {
                if table.sections[i].key != keys[j] {
                    edits.writes.append(
                        .rekeySection(tableID: tableID, sectionID: table.sections[i].id, key: keys[j]))
                }
                ids.append(table.sections[i].id)
            }
        }
        return ids
    }

    /// Keys for the rows of document section `j` (staying rows keep theirs unless the section
    /// must be re-spaced, which re-keys them in place).
    private func placeRows(_ j: Int, sectionID: UInt64, tableID: UInt64, writes: inout [StoreWrite])
        -> [Int64]
    {
        let kept: [Int64?] = rowMatch[j].indices.map { rowStays[j][$0] ? rows[rowMatch[j][$0]].key : nil }
        if let keys = keysBetweenKept(kept) { return keys }
        let keys = kept.indices.map { Int64($0) * OrderKeys.spacing }
        for (p, f) in rowMatch[j].enumerated() where f >= 0 && rowStays[j][p] && rows[f].key != keys[p] {
            writes.append(
                .moveRow(
                    tableID: tableID, fromSectionID: sectionID, oldKey: rows[f].key, rowID: rows[f].id,
                    toSectionID: sectionID, key: keys[p]))
        }
        return keys
    }
}
