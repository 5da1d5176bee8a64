// SPDX-License-Identifier: MIT
import CliptabClient
import DBus
import MenuModel

/// The menu's calls to cliptabd, read into the menu model's types.
extension CliptabClient {
    /// The tables' names.
    public func tables() throws(ClientFailure) -> [String] {
        try call("ListTables").strings(0)
    }

    /// The table's sections.
    public func sections(_ table: String) throws(ClientFailure) -> [SectionOutline] {
        let reply = try call("GetSections", [.string(table)])
        var outlines: [SectionOutline] = []
        for field in try reply.structures(0, "(ssu)") {
            let section = DaemonReply(member: reply.member, values: field)
            outlines.append(
                SectionOutline(
                    header: try section.string(0), footer: try section.string(1),
                    rowCount: Int(try section.uint32(2))))
        }
        return outlines
    }

    /// The names of the table's rows, by id; empty where the daemon has no row names.
    public func rowNames(_ table: String) -> [UInt64: String] {
        guard let pairs = try? call("GetRowNames", [.string(table)]).structures(0, "(ts)") else { return [:] }
        var names: [UInt64: String] = [:]
        for pair in pairs {
            if let id = try? pair.uint64(at: 0), let name = try? pair.string(at: 1) { names[id] = name }
        }
        return names
    }

    /// Whether the table is secret (`GetSecret`), so that its rows' text is never shown.
    ///
    /// A daemon without `GetSecret` (API version 1) has no secret tables.
    public func isSecret(_ table: String) throws(ClientFailure) -> Bool {
        do throws(ClientFailure) {
            return try call("GetSecret", [.string(table)]).boolean(0)
        } catch  where error.isUnknownMethod {
            return false
        }
    }

    /// The row's actions, in the daemon's order.
    public func actions(_ row: MenuRow) throws(ClientFailure) -> [String] {
        try call("GetActions", Self.path(row)).strings(0)
    }

    /// The row's text.
    public func text(_ row: MenuRow) throws(ClientFailure) -> String {
        try call("GetCell", Self.path(row)).string(0)
    }

    /// Where the row with `id` is now (rows move while a menu is open).
    public func locate(_ row: MenuRow) throws(ClientFailure) -> MenuRow {
        guard row.id != 0 else { return row }
        let reply = try call("Locate", [.uint64(row.id)])
        return MenuRow(
            table: try reply.string(0), section: Int(try reply.int32(1)), row: Int(try reply.int32(2)),
            id: row.id)
    }

    /// The cell's index path as arguments.
    public static func path(_ row: MenuRow) -> [BusValue] {
        [.string(row.table), .int32(Int32(row.section)), .int32(Int32(row.row))]
    }
}

extension ClientFailure: CustomStringConvertible {
    /// The message shown in the menu.
    public var description: String {
        isGone ? "cliptabd is gone: \(error.message)" : "\(error.message)"
    }
}
