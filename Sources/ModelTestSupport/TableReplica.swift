// SPDX-License-Identifier: MIT
import CliptabCore

/// A client's copy of one table kept from the service's events alone, as a UIKit view
/// follows its data source; checked against the table afterwards.
public struct TableReplica {
    private var sections: [ReplicaSection]?

    /// A replica of `table` as a client read it (nil: the table does not exist yet).
    public init(_ table: Table?) {
        sections = table.map { table in
            table.sections.map { section in
                ReplicaSection(
                    id: section.id, titles: section.header + "\u{0}" + section.footer,
                    rows: section.rows.map { ReplicaRow(id: $0.id, text: $0.text) })
            }
        }
    }

    /// Follows `events` of the table `name` in order; nil, or what could not be followed.
    public mutating func follow(_ events: [TableEvent], table name: String) -> String? {
        for event in events {
            switch event {
            case .tableAdded(let added) where added == name:
                guard sections == nil else { return "TableAdded of a table the replica has" }
                sections = [ReplicaSection(id: nil, titles: nil, rows: [])]
            case .tableAdded, .tableRemoved, .tableRenamed:
                return "unexpected \(event)"
            default:
                guard var current = sections else { return "\(event) before the table exists" }
                if let problem = ModelRun.apply(event, to: &current) { return "\(event): \(problem)" }
                sections = current
            }
        }
        return nil
    }

    /// Nil when the replica agrees with `table` wherever it knows something (ids of rows
    /// and sections it never saw inserted, texts and titles it never saw change), or what
    /// differs.
    public func disagreement(with table: Table) -> String? {
        guard let sections else { return "the replica has no table" }
        guard sections.count == table.sections.count else {
            return "replica has \(sections.count) sections, the table \(table.sections.count)"
        }
        for (s, (replica, actual)) in zip(sections, table.sections).enumerated() {
            if let id = replica.id, id != actual.id {
                return "section \(s) is section \(id), not \(actual.id)"
            }
            if let titles = replica.titles, titles != actual.header + "\u{0}" + actual.footer {
                return "section \(s) has other titles"
            }
            guard replica.rows.count == actual.rows.count else {
                return
                    "section \(s) has \(replica.rows.count) rows in the replica, \(actual.rows.count) in the table"
            }
            for (r, (row, real)) in zip(replica.rows, actual.rows).enumerated() {
                if let id = row.id, id != real.id {
                    return "row \(s):\(r) is row \(id) in the replica, \(real.id)"
                }
                if let text = row.text, text != real.text {
                    return "row \(s):\(r) has another text in the replica"
                }
            }
        }
        return nil
    }
}
