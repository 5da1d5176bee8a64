// SPDX-License-Identifier: MIT
import CliptabContract
import DBus

/// The contract's calls about row names (`docs/dbus-api.md`), one typed method each; where a
/// method answers for more than one call, it falls back to an earlier API version's here.
extension CliptabClient {
    /// `SetRowName`.
    public func setRowName(_ cell: TableCell, _ name: String) throws(ClientFailure) {
        try call("SetRowName", cell.arguments + [.string(name)])
    }

    /// `FindRow`: the row named `name`, and its id.
    public func findRow(_ table: String, name: String) throws(ClientFailure) -> (cell: TableCell, id: UInt64)
    {
        let reply = try call("FindRow", [.string(table), .string(name)])
        return (TableCell(table, section: try reply.int32(0), row: try reply.int32(1)), try reply.uint64(2))
    }

    /// `GetRowNames`: the table's named rows in order; none from a daemon without row names.
    public func rowNames(_ table: String) throws(ClientFailure) -> [NamedRow] {
        let reply: DaemonReply
        do throws(ClientFailure) {
            reply = try call("GetRowNames", [.string(table)])
        } catch  where error.isUnknownMethod {
            return []
        }
        return try Self.namedRows(reply)
    }

    /// The names of the table's rows by id, as a list of rows shows them beside (or, for a
    /// secret table, in place of) their text: `rowNames`.
    public func rowNamesByID(_ table: String) throws(ClientFailure) -> [UInt64: String] {
        var names: [UInt64: String] = [:]
        for named in try rowNames(table) { names[named.id] = named.name }
        return names
    }

    /// `GetRowNamesPage`: the names of `limit` rows of `section` from `offset`.
    public func rowNames(_ table: String, section: Int32, offset: UInt32, limit: UInt32) throws(ClientFailure)
        -> [NamedRow]
    {
        try Self.namedRows(call("GetRowNamesPage", Self.page(table, section, offset, limit)))
    }

    /// The named rows of an `a(ts)` reply.
    private static func namedRows(_ reply: DaemonReply) throws(ClientFailure) -> [NamedRow] {
        var rows: [NamedRow] = []
        for fields in try reply.structures(0, "a(ts)") {
            let pair = DaemonReply(member: reply.member, values: fields)
            rows.append(NamedRow(id: try pair.uint64(0), name: try pair.string(1)))
        }
        return rows
    }
}
