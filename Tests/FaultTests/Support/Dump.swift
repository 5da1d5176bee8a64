// SPDX-License-Identifier: MIT
import DBus
import TestSupport

/// One row as the daemon reports it.
struct DumpedRow: Equatable, CustomStringConvertible {
    /// The row id.
    var id: UInt64
    /// The text.
    var text: String

    /// "#id text" (texts shortened).
    var description: String { "#\(id) \(text.prefix(20).debugDescription)" }
}

/// One section as the daemon reports it.
struct DumpedSection: Equatable {
    /// The header title.
    var header: String
    /// The footer title.
    var footer: String
    /// The rows.
    var rows: [DumpedRow]
}

/// One table as the daemon reports it.
struct DumpedTable: Equatable {
    /// The revision.
    var revision: UInt64
    /// The allowed actions.
    var actions: [String]
    /// The sections.
    var sections: [DumpedSection]

    /// The number of rows in all sections.
    var rowCount: Int { sections.reduce(0) { $0 + $1.rows.count } }
}

/// Everything a daemon serves, read through the bus: the state a client can see.
struct StoreDump: Equatable {
    /// The tables by name.
    var tables: [String: DumpedTable]

    /// Every row id of every table.
    var allRowIDs: [UInt64] {
        tables.values.flatMap { $0.sections.flatMap { $0.rows.map(\.id) } }
    }

    /// Reads the whole state from the daemon on `connection`.
    static func read(_ connection: BusConnection) throws -> StoreDump {
        var tables: [String: DumpedTable] = [:]
        for name in try names(connection) {
            tables[name] = try table(connection, name)
        }
        return StoreDump(tables: tables)
    }

    /// The table names.
    static func names(_ connection: BusConnection) throws -> [String] {
        guard case .array(_, let items)? = try Cliptab.call(connection, "ListTables").first else {
            throw FixtureError("ListTables did not answer a list")
        }
        return items.compactMap { if case .string(let name) = $0 { return name } else { return nil } }
    }

    /// One table, or nil when it does not exist.
    static func table(_ connection: BusConnection, _ name: String) throws -> DumpedTable? {
        let revisionReply: [BusValue]
        do {
            revisionReply = try Cliptab.call(connection, "GetRevision", [s(name)])
        } catch let error as BusError where Cliptab.short(error.name) == "NoSuchTable" {
            return nil
        }
        guard case .uint64(let revision)? = revisionReply.first,
            case .array(_, let actionValues)? = try Cliptab.call(connection, "GetAllowedActions", [s(name)])
                .first,
            case .array(_, let sectionValues)? = try Cliptab.call(connection, "GetSections", [s(name)]).first
        else { throw FixtureError("unexpected replies reading table \(name)") }
        var sections: [DumpedSection] = []
        for (index, value) in sectionValues.enumerated() {
            guard case .structure(let fields) = value, case .string(let header) = fields[0],
                case .string(let footer) = fields[1]
            else { throw FixtureError("GetSections gave \(value)") }
            let reply = try Cliptab.call(
                connection, "GetRows", [s(name), i(Int32(index)), .uint32(0), .uint32(0)], timeout: 120_000)
            guard case .array(_, let rowValues)? = reply.first else {
                throw FixtureError("GetRows gave \(reply)")
            }
            let rows = rowValues.map { value -> DumpedRow in
                guard case .structure(let fields) = value, case .uint64(let id) = fields[0],
                    case .string(let text) = fields[1]
                else { return DumpedRow(id: 0, text: "?") }
                return DumpedRow(id: id, text: text)
            }
            sections.append(DumpedSection(header: header, footer: footer, rows: rows))
        }
        let actions = actionValues.compactMap { value -> String? in
            if case .string(let action) = value { return action } else { return nil }
        }
        return DumpedTable(revision: revision, actions: actions, sections: sections)
    }

    /// A short account of the first difference from `other`, or nil when equal.
    func difference(from other: StoreDump) -> String? {
        if self == other { return nil }
        let names = Set(tables.keys).union(other.tables.keys).sorted()
        for name in names where tables[name] != other.tables[name] {
            guard let mine = tables[name], let theirs = other.tables[name] else {
                return "table \(name) exists only on one side"
            }
            return "table \(name): " + (mine.difference(from: theirs) ?? "?")
        }
        return "?"
    }
}

extension DumpedTable {
    /// A short account of the first difference from `other`, or nil when equal.
    func difference(from other: DumpedTable) -> String? {
        if self == other { return nil }
        if revision != other.revision { return "revision \(revision) vs \(other.revision)" }
        if actions != other.actions { return "actions \(actions) vs \(other.actions)" }
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
