// SPDX-License-Identifier: MIT
import DBus

/// One table linked to a file, as `GetLinks` describes it.
public struct TableLink: Equatable, Sendable {
    /// The table's name.
    public let table: String
    /// The file in the folder.
    public let file: String
    /// `following` (the table equals the file) or `invalid` (the file cannot be applied).
    public let state: String
    /// Why the file cannot be applied, with file, line and column; empty when following.
    public let problem: String
    /// Sync tools' conflict copies beside the file.
    public let conflicts: [String]
}

/// The folder of linked tables, its links, and the problems a person should see.
public struct TableLinks: Equatable, Sendable {
    /// The folder the daemon follows.
    public let folder: String
    /// The links, by table name.
    public let links: [TableLink]
    /// Files that cannot be applied, files left alone, conflict copies: one line each.
    public let problems: [String]
}

extension CliptabClient {
    /// The options argument of API version 4's methods, empty.
    private static var noOptions: BusValue { .dictionary(keySignature: "s", valueSignature: "v", []) }

    /// `GetLinks`: the folder the daemon follows and its linked tables.
    public func links() throws(ClientFailure) -> TableLinks {
        let reply = try call("GetLinks", [Self.noOptions])
        let links = try reply.structures(1, "(ssssas)").map { fields throws(ClientFailure) -> TableLink in
            let values = DaemonReply(member: "GetLinks", values: fields)
            return TableLink(
                table: try values.string(0), file: try values.string(1), state: try values.string(2),
                problem: try values.string(3), conflicts: try values.strings(4))
        }
        return TableLinks(folder: try reply.string(0), links: links, problems: try reply.strings(2))
    }

    /// `LinkTable`: writes `table` to `file` (an absolute path; nil: its file in the folder)
    /// and links it; returns the file written.
    public func linkTable(_ table: String, file: String?) throws(ClientFailure) -> String {
        try call("LinkTable", [.string(table), .string(file ?? ""), Self.noOptions]).string(0)
    }

    /// `UnlinkTable`: stops following `table`'s file; both stay.
    public func unlinkTable(_ table: String) throws(ClientFailure) {
        try call("UnlinkTable", [.string(table), Self.noOptions])
    }
}
