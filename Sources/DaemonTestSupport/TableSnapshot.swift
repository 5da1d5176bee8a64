// SPDX-License-Identifier: MIT
import CliptabClient
import DBus
import TestSupport

/// A whole table as a client of the daemon sees it through `GetRevision`,
/// `GetAllowedActions`, `GetSections` and `GetRows`; a store is a `[String: TableSnapshot]`.
public struct TableSnapshot: Equatable {
    /// The revision.
    public var revision: UInt64
    /// The allowed actions, as `GetAllowedActions` lists them.
    public var allowedActions: [String]
    /// The sections in order.
    public var sections: [SectionSnapshot]

    /// Makes a snapshot.
    public init(revision: UInt64, allowedActions: [String], sections: [SectionSnapshot]) {
        self.revision = revision
        self.allowedActions = allowedActions
        self.sections = sections
    }

    /// The number of rows in all sections.
    public var rowCount: Int { sections.reduce(0) { $0 + $1.rows.count } }

    /// Reads table `name` from the daemon on `connection`; nil when it does not exist.
    public static func read(_ connection: BusConnection, _ name: String) throws -> TableSnapshot? {
        // Large tables take long to list in a debug build under load.
        let client = CliptabClient(
            connection: connection, timeoutMilliseconds: 120_000, sharedDeadline: false)
        let revision: UInt64
        do {
            revision = try client.revision(name)
        } catch {
            if Cliptab.short(error.error.name) == "NoSuchTable" { return nil }
            throw error
        }
        let actions = try client.allowedActions(name)
        var sections: [SectionSnapshot] = []
        for (index, section) in try client.sections(name).enumerated() {
            let rows = try client.rows(name, section: Int32(index)).map {
                RowSnapshot(id: $0.id, text: $0.text)
            }
            sections.append(SectionSnapshot(header: section.header, footer: section.footer, rows: rows))
        }
        return TableSnapshot(revision: revision, allowedActions: actions, sections: sections)
    }

    /// Every table the daemon on `connection` serves, by name.
    public static func readAll(_ connection: BusConnection) throws -> [String: TableSnapshot] {
        let client = CliptabClient(connection: connection, timeoutMilliseconds: 30_000, sharedDeadline: false)
        var tables: [String: TableSnapshot] = [:]
        for name in try client.tables() {
            tables[name] = try read(connection, name)
        }
        return tables
    }

    /// The rows of a `GetRows` reply (an `a(ts)`).
    public static func rows(_ reply: [BusValue]) throws -> [RowSnapshot] {
        guard case .array(_, let items)? = reply.first else { throw FixtureError("not an a(ts): \(reply)") }
        return try items.map {
            guard case .structure(let fields) = $0, fields.count == 2, case .uint64(let id) = fields[0],
                case .string(let text) = fields[1]
            else { throw FixtureError("not a (ts): \($0)") }
            return RowSnapshot(id: id, text: text)
        }
    }

    /// Every row id of every table of `store`.
    public static func rowIDs(in store: [String: TableSnapshot]) -> [UInt64] {
        store.values.flatMap { $0.sections.flatMap { $0.rows.map(\.id) } }
    }

    /// A short account of the first difference between two stores, or nil when equal.
    public static func difference(_ store: [String: TableSnapshot], _ other: [String: TableSnapshot])
        -> String?
    {
        if store == other { return nil }
        for name in Set(store.keys).union(other.keys).sorted() where store[name] != other[name] {
            guard let mine = store[name], let theirs = other[name] else {
                return "table \(name) exists only on one side"
            }
            return "table \(name): " + (mine.difference(from: theirs) ?? "?")
        }
        return "?"
    }

    /// A short account of the first difference from `other`, or nil when equal.
    public func difference(from other: TableSnapshot) -> String? {
        if self == other { return nil }
        if revision != other.revision { return "revision \(revision) vs \(other.revision)" }
        if allowedActions != other.allowedActions {
            return "actions \(allowedActions) vs \(other.allowedActions)"
        }
        if sections.count != other.sections.count {
            return "\(sections.count) sections vs \(other.sections.count)"
        }
        for (index, (mine, theirs)) in zip(sections, other.sections).enumerated() where mine != theirs {
            if mine.header != theirs.header || mine.footer != theirs.footer {
                return
                    "section \(index) titles (\(mine.header), \(mine.footer)) vs (\(theirs.header), \(theirs.footer))"
            }
            if mine.rows.count != theirs.rows.count {
                return "section \(index): \(mine.rows.count) rows vs \(theirs.rows.count)"
            }
            for (row, (a, b)) in zip(mine.rows, theirs.rows).enumerated() where a != b {
                return "section \(index) row \(row): \(a) vs \(b)"
            }
        }
        return "?"
    }
}
