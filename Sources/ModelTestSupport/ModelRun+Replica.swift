// SPDX-License-Identifier: MIT
import CliptabCore

/// The event replica: the service's events replayed onto a client's copy of the tables.
extension ModelRun {
    /// Applies one step's `events` to the replica and compares it with the service; nil, or
    /// what is wrong.
    func replay(_ events: [TableEvent], creatingByImport: Bool, before: Catalog) -> String? {
        let catalog = service.catalog
        var revisions: [String: [UInt64]] = [:]
        for event in events {
            switch event {
            case .tableAdded(let name):
                if replica[name] != nil { return "TableAdded of existing \(name)" }
                replica[name] = creatingByImport ? [] : [ReplicaSection(id: nil, titles: nil, rows: [])]
            case .tableRemoved(let name):
                if replica.removeValue(forKey: name) == nil { return "TableRemoved of unknown \(name)" }
            case .tableRenamed(let from, let to):
                guard let table = replica.removeValue(forKey: from), replica[to] == nil else {
                    return "bad TableRenamed \(from) -> \(to)"
                }
                replica[to] = table
            default:
                guard let (name, revision) = Self.tableAndRevision(event), var sections = replica[name] else {
                    return "event \(event) for a table the replica does not have"
                }
                revisions[name, default: []].append(revision)
                if let problem = Self.apply(event, to: &sections) { return "\(event): \(problem)" }
                replica[name] = sections
            }
        }
        for (name, list) in revisions {
            let revision = catalog.tables[name]?.record.revision
            if list.contains(where: { $0 != revision }) { return "events of \(name) carry revisions \(list)" }
        }
        var oldRevisions: [UInt64: UInt64] = [:]
        for table in before.tables.values { oldRevisions[table.record.id] = table.record.revision }
        for (name, table) in catalog.tables {
            let changed = table.record.revision != oldRevisions[table.record.id] ?? 0
            if changed != (revisions[name] != nil) {
                return "\(name): revision \(table.record.revision) but events \(revisions[name] ?? [])"
            }
        }
        return fillReplica()
    }

    private static func tableAndRevision(_ event: TableEvent) -> (String, UInt64)? {
        switch event {
        case .sectionsInserted(let table, let revision, _), .sectionsDeleted(let table, let revision, _),
            .sectionMoved(let table, let revision, _, _), .sectionChanged(let table, let revision, _),
            .rowsInserted(let table, let revision, _), .rowsDeleted(let table, let revision, _),
            .rowMoved(let table, let revision, _, _), .rowsChanged(let table, let revision, _):
            return (table, revision)
        case .tableAdded, .tableRemoved, .tableRenamed:
            return nil
        }
    }

    private static func ascending<T: Comparable>(_ items: [T]) -> Bool {
        !zip(items, items.dropFirst()).contains { $0 >= $1 }
    }

    /// Applies one section or row event to the replica's sections; nil, or what is wrong.
    static func apply(_ event: TableEvent, to sections: inout [ReplicaSection]) -> String? {
        func valid(_ path: IndexPath) -> Bool {
            path.section >= 0 && Int(path.section) < sections.count && path.row >= 0
                && Int(path.row) < sections[Int(path.section)].rows.count
        }
        switch event {
        case .sectionsInserted(_, _, let indexes):
            guard ascending(indexes) else { return "indexes not ascending" }
            for index in indexes {
                guard index >= 0 && Int(index) <= sections.count else { return "index \(index) out of range" }
                sections.insert(ReplicaSection(id: nil, titles: nil, rows: []), at: Int(index))
            }
        case .sectionsDeleted(_, _, let indexes):
            guard ascending(indexes), indexes.allSatisfy({ $0 >= 0 && Int($0) < sections.count }) else {
                return "bad indexes for \(sections.count) sections"
            }
            for index in indexes.reversed() { sections.remove(at: Int(index)) }
        case .sectionMoved(_, _, let from, let to):
            guard from >= 0 && Int(from) < sections.count && to >= 0 && Int(to) < sections.count else {
                return "out of range for \(sections.count) sections"
            }
            sections.insert(sections.remove(at: Int(from)), at: Int(to))
        case .sectionChanged(_, _, let index):
            guard index >= 0 && Int(index) < sections.count else { return "out of range" }
            sections[Int(index)].titles = nil
        case .rowsInserted(_, _, let paths):
            guard ascending(paths) else { return "paths not ascending" }
            for path in paths {
                guard
                    path.section >= 0 && Int(path.section) < sections.count && path.row >= 0
                        && Int(path.row) <= sections[Int(path.section)].rows.count
                else { return "path \(path) out of range" }
                sections[Int(path.section)].rows.insert(ReplicaRow(id: nil, text: nil), at: Int(path.row))
            }
        case .rowsDeleted(_, _, let paths):
            guard ascending(paths), paths.allSatisfy(valid) else { return "bad paths" }
            for path in paths.reversed() { sections[Int(path.section)].rows.remove(at: Int(path.row)) }
        case .rowMoved(_, _, let from, let to):
            guard valid(from) else { return "source out of range" }
            let row = sections[Int(from.section)].rows.remove(at: Int(from.row))
            guard
                to.section >= 0 && Int(to.section) < sections.count && to.row >= 0
                    && Int(to.row) <= sections[Int(to.section)].rows.count
            else { return "destination out of range" }
            sections[Int(to.section)].rows.insert(row, at: Int(to.row))
        case .rowsChanged(_, _, let paths):
            guard paths.allSatisfy(valid) else { return "bad paths" }
            for path in paths { sections[Int(path.section)].rows[Int(path.row)].text = nil }
        case .tableAdded, .tableRemoved, .tableRenamed:
            return "not a section or row event"
        }
        return nil
    }

    /// Fills what the replica could not know from the service, and checks that everything it
    /// did know agrees.
    private func fillReplica() -> String? {
        let catalog = service.catalog
        if Set(replica.keys) != Set(catalog.tables.keys) {
            return "replica has tables \(replica.keys.sorted()), service \(catalog.tables.keys.sorted())"
        }
        for (name, table) in catalog.tables {
            var sections = replica[name]!
            guard sections.count == table.sections.count else {
                return "replica of \(name) has \(sections.count) sections, service \(table.sections.count)"
            }
            for (s, actual) in table.sections.enumerated() {
                let titles = actual.header + "\u{0}" + actual.footer
                if sections[s].id == nil { sections[s].id = actual.id }
                if sections[s].titles == nil { sections[s].titles = titles }
                guard sections[s].id == actual.id, sections[s].titles == titles,
                    sections[s].rows.count == actual.rows.count
                else { return "replica of \(name) section \(s) disagrees" }
                for (r, row) in actual.rows.enumerated() {
                    if sections[s].rows[r].id == nil { sections[s].rows[r].id = row.id }
                    if sections[s].rows[r].text == nil { sections[s].rows[r].text = row.text }
                    if sections[s].rows[r] != ReplicaRow(id: row.id, text: row.text) {
                        return "replica of \(name) row \(s):\(r) is \(sections[s].rows[r]), service \(row)"
                    }
                }
            }
            replica[name] = sections
        }
        return nil
    }
}
