// SPDX-License-Identifier: MIT
import CliptabContract
import DBus

/// The contract's calls about tables (`docs/dbus-api.md`), one typed method each; where a
/// method answers for more than one call, it falls back to an earlier API version's here.
extension CliptabClient {
    /// `ListTables`: the tables' names.
    public func tables() throws(ClientFailure) -> [String] { try call("ListTables").strings(0) }

    /// `CreateTable`.
    public func createTable(_ table: String) throws(ClientFailure) {
        try call("CreateTable", [.string(table)])
    }

    /// `DropTable`.
    public func dropTable(_ table: String) throws(ClientFailure) { try call("DropTable", [.string(table)]) }

    /// `RenameTable`.
    public func renameTable(_ table: String, to name: String) throws(ClientFailure) {
        try call("RenameTable", [.string(table), .string(name)])
    }

    /// `GetRevision`: the table's revision, which every change raises.
    public func revision(_ table: String) throws(ClientFailure) -> UInt64 {
        try call("GetRevision", [.string(table)]).uint64(0)
    }

    /// `ExportTable` in `format` (json, yaml, csv, lines, ...).
    public func exportTable(_ table: String, format: String) throws(ClientFailure) -> String {
        try call("ExportTable", [.string(table), .string(format)]).string(0)
    }

    /// `ImportTable`: the number of rows read.
    public func importTable(_ table: String, format: String, data: String, replace: Bool)
        throws(ClientFailure)
        -> UInt32
    {
        try call("ImportTable", [.string(table), .string(format), .string(data), .boolean(replace)]).uint32(0)
    }

    /// `ExportSnippets` to the format of `peer`: the data, the rows left out and the rows whose
    /// text was not translated.
    public func exportSnippets(_ table: String, to peer: String) throws(ClientFailure)
        -> (data: String, leftOut: UInt32, untranslated: UInt32)
    {
        let reply = try call("ExportSnippets", [.string(table), .string(peer)])
        return (try reply.string(0), try reply.uint32(1), try reply.uint32(2))
    }

    /// `GetSecret`: whether the table is secret; false from a daemon without secrets (API
    /// version 1).
    public func isSecret(_ table: String) throws(ClientFailure) -> Bool {
        do throws(ClientFailure) {
            return try call("GetSecret", [.string(table)]).boolean(0)
        } catch  where error.isUnknownMethod {
            return false
        }
    }

    /// `SetSecret`.
    public func setSecret(_ table: String, _ secret: Bool) throws(ClientFailure) {
        try call("SetSecret", [.string(table), .boolean(secret)])
    }

    /// `GetAllowedActions`.
    public func allowedActions(_ table: String) throws(ClientFailure) -> [String] {
        try call("GetAllowedActions", [.string(table)]).strings(0)
    }

    /// `SetAllowedActions`.
    public func setAllowedActions(_ table: String, _ actions: [String]) throws(ClientFailure) {
        try call(
            "SetAllowedActions", [.string(table), .array(elementSignature: "s", actions.map { .string($0) })])
    }

    /// `GetTemplates`.
    public func templates(_ table: String) throws(ClientFailure) -> Bool {
        try call("GetTemplates", [.string(table)]).boolean(0)
    }

    /// `SetTemplates`.
    public func setTemplates(_ table: String, _ on: Bool) throws(ClientFailure) {
        try call("SetTemplates", [.string(table), .boolean(on)])
    }

    /// `ApplyTable`: `document` (the table file) applied if the table is still at `revision`;
    /// the new revision and the counts of what changed, in the contract's order.
    public func applyTable(
        _ table: String, document: String, revision: UInt64, options: [String: BusValue] = [:]
    ) throws(ClientFailure) -> (revision: UInt64, counts: [(String, UInt32)]) {
        let reply = try call(
            "ApplyTable", [.string(table), .string(document), .uint64(revision), Self.options(options)])
        return (try reply.uint64(0), try Self.counts(reply, 1))
    }

    /// `ImportSnippets` from the file or folder at `path` (an absolute path) in the format of
    /// `peer`: the new revision, the counts, and the report's lines.
    public func importSnippets(
        _ table: String, path: String, from peer: String, options: [String: BusValue] = [:]
    ) throws(ClientFailure) -> (revision: UInt64, counts: [(String, UInt32)], report: [String]) {
        let reply = try call(
            "ImportSnippets", [.string(table), .string(path), .string(peer), Self.options(options)])
        return (try reply.uint64(0), try Self.counts(reply, 1), try reply.strings(2))
    }

    /// The `a{su}` at `index` of `reply`, in its order.
    private static func counts(_ reply: DaemonReply, _ index: Int) throws(ClientFailure) -> [(String, UInt32)]
    {
        guard index < reply.values.count, case .dictionary(_, _, let entries) = reply.values[index] else {
            throw .unexpectedReply(member: reply.member, BusValueMismatch(index: index, expected: "a{su}"))
        }
        var counts: [(String, UInt32)] = []
        for (key, value) in entries {
            if case .string(let name) = key, case .uint32(let count) = value { counts.append((name, count)) }
        }
        return counts
    }
}
