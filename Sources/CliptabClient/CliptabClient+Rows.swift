// SPDX-License-Identifier: MIT
import CliptabContract
import DBus

/// The contract's calls about rows (`docs/dbus-api.md`), one typed method each; where a
/// method answers for more than one call, it falls back to an earlier API version's here.
extension CliptabClient {
    /// `GetRows`: `limit` rows of `section` from `offset` (0: all of them), whole.
    public func rows(_ table: String, section: Int32, offset: UInt32 = 0, limit: UInt32 = 0)
        throws(ClientFailure) -> [BusIDText]
    {
        try Self.idTexts("GetRows", replyMessage("GetRows", Self.page(table, section, offset, limit)))
    }

    /// `GetRowPreviews`: the same rows as `rows`, each text cut to its first `characters`;
    /// `GetRows` from a daemon without it (API version 2), whose texts come whole.
    public func rowPreviews(
        _ table: String, section: Int32, offset: UInt32 = 0, limit: UInt32 = 0, characters: UInt32
    ) throws(ClientFailure) -> [BusIDText] {
        let page = Self.page(table, section, offset, limit)
        do throws(ClientFailure) {
            return try Self.idTexts(
                "GetRowPreviews", replyMessage("GetRowPreviews", page + [.uint32(characters)]))
        } catch  where error.isUnknownMethod {
            return try rows(table, section: section, offset: offset, limit: limit)
        }
    }

    /// A table's sections, secrecy and all rows (each text cut to `characters`), in as few
    /// round trips as the calls allow: the sections, the secrecy and the first section's
    /// rows in one, then the rows of up to `sectionsPerBatch` sections at a time.
    public func listing(_ table: String, characters: UInt32, sectionsPerBatch: Int = 32) throws(ClientFailure)
        -> TableListing
    {
        let previews = { (section: Int) -> [BusValue] in
            Self.page(table, Int32(section), 0, 0) + [.uint32(characters)]
        }
        let first = try replyMessages([
            ("GetSections", [.string(table)]), ("GetSecret", [.string(table)]),
            // Most tables have one section. Refused (no such section, or a daemon without
            // GetRowPreviews), it is asked again below.
            ("GetRowPreviews", previews(0)),
        ])
        let sections = try Self.sections(
            DaemonReply(member: "GetSections", values: Self.values(first[0], "GetSections")))
        let secret: Bool
        switch first[1] {
        case .failure(let failure) where failure.isUnknownMethod: secret = false
        case let outcome:
            secret = try DaemonReply(member: "GetSecret", values: Self.values(outcome, "GetSecret")).boolean(
                0)
        }
        var rows: [[BusIDText]] = []
        if !sections.isEmpty, case .success(let message) = first[2],
            let sectionZero = try? message.readIDTextArray()
        {
            rows.append(sectionZero)
        }
        var member = "GetRowPreviews"
        var next = rows.count
        while next < sections.count {
            let batch = next..<min(next + sectionsPerBatch, sections.count)
            let replies =
                member == "GetRows"
                ? try batch.map { section throws(ClientFailure) in
                    Result<BusMessage, ClientFailure>.success(
                        try replyMessage(member, Self.page(table, Int32(section), 0, 0)))
                }
                : try replyMessages(batch.map { (member, previews($0)) })
            if member == "GetRowPreviews", case .failure(let failure)? = replies.first,
                failure.isUnknownMethod
            {
                // A daemon of API version 2: whole rows, one section after the other.
                member = "GetRows"
                continue
            }
            for reply in replies { rows.append(try Self.idTexts(member, reply.get())) }
            next = batch.upperBound
        }
        return TableListing(sections: sections, isSecret: secret, rows: rows)
    }

    /// The arguments of `GetRows` for `limit` rows of `section` from `offset`.
    static func page(_ table: String, _ section: Int32, _ offset: UInt32, _ limit: UInt32)
        -> [BusValue]
    {
        [.string(table), .int32(section), .uint32(offset), .uint32(limit)]
    }

    /// The values of a batched call's reply, or its failure thrown.
    private static func values(_ outcome: Result<BusMessage, ClientFailure>, _ member: String)
        throws(ClientFailure) -> [BusValue]
    {
        let message = try outcome.get()
        do {
            return try message.readValues()
        } catch {
            throw .unexpectedReply(member: member, BusValueMismatch(index: 0, expected: "a reply"))
        }
    }

    /// The rows of an `a(ts)` reply, read straight into their type.
    private static func idTexts(_ member: String, _ message: BusMessage) throws(ClientFailure) -> [BusIDText]
    {
        do {
            return try message.readIDTextArray()
        } catch {
            throw .unexpectedReply(member: member, BusValueMismatch(index: 0, expected: "a(ts)"))
        }
    }

    /// `GetCell`: the cell's text.
    public func cell(_ cell: TableCell) throws(ClientFailure) -> String {
        try call("GetCell", cell.arguments).string(0)
    }

    /// `SetCell`.
    public func setCell(_ cell: TableCell, _ text: String) throws(ClientFailure) {
        try call("SetCell", cell.arguments + [.string(text)])
    }

    /// `EditCell`: the table's revision after the change.
    @discardableResult
    public func editCell(_ cell: TableCell, _ text: String, options: [String: BusValue] = [:])
        throws(ClientFailure)
        -> UInt64
    {
        try call("EditCell", cell.arguments + [.string(text), Self.options(options)]).uint64(0)
    }

    /// Sets the cell if the table is still at `revision`; false when the table changed.
    ///
    /// One `EditCell` call, whose refusal is thrown; with a daemon without it (before API version 4) a `GetRevision` check just
    /// before `SetCell` (a change in that round trip is lost).
    public func setCell(_ cell: TableCell, _ text: String, ifAtRevision revision: UInt64)
        throws(ClientFailure)
        -> Bool
    {
        do throws(ClientFailure) {
            try editCell(cell, text, options: ["revision": .uint64(revision)])
            return true
        } catch  where error.isUnknownMethod {}
        guard try self.revision(cell.table) == revision else { return false }
        try setCell(cell, text)
        return true
    }

    /// `InsertRow` at `cell`: the new row's id.
    @discardableResult
    public func insertRow(_ cell: TableCell, _ text: String) throws(ClientFailure) -> UInt64 {
        try call("InsertRow", cell.arguments + [.string(text)]).uint64(0)
    }

    /// `InsertRows` from `cell` on: the new rows' ids.
    @discardableResult
    public func insertRows(_ cell: TableCell, _ texts: [String]) throws(ClientFailure) -> [UInt64] {
        try call("InsertRows", cell.arguments + [.array(elementSignature: "s", texts.map { .string($0) })])
            .uint64s(0)
    }

    /// `DeleteRow`.
    public func deleteRow(_ cell: TableCell) throws(ClientFailure) { try call("DeleteRow", cell.arguments) }

    /// `DeleteRows`: row `rows[i]` of section `sections[i]`, each.
    public func deleteRows(_ table: String, sections: [Int32], rows: [Int32]) throws(ClientFailure) {
        try call(
            "DeleteRows",
            [
                .string(table), .array(elementSignature: "i", sections.map { .int32($0) }),
                .array(elementSignature: "i", rows.map { .int32($0) }),
            ])
    }

    /// `DeleteWhere`: the index paths of the rows matched (deleted unless `dryRun`).
    public func deleteWhere(_ table: String, op: String, operand: String, dryRun: Bool) throws(ClientFailure)
        -> [CellPath]
    {
        let reply = try call(
            "DeleteWhere", [.string(table), .string(op), .string(operand), .boolean(dryRun)])
        var paths: [CellPath] = []
        for fields in try reply.structures(0, "a(ii)") {
            let path = DaemonReply(member: reply.member, values: fields)
            paths.append(CellPath(section: try path.int32(0), row: try path.int32(1)))
        }
        return paths
    }

    /// `MoveRow` to row `row` of section `section` of the same table.
    public func moveRow(_ cell: TableCell, toSection section: Int32, row: Int32) throws(ClientFailure) {
        try call("MoveRow", cell.arguments + [.int32(section), .int32(row)])
    }

    /// `Locate`: where the row with `id` is now.
    public func locate(_ id: UInt64) throws(ClientFailure) -> TableCell {
        let reply = try call("Locate", [.uint64(id)])
        return TableCell(try reply.string(0), section: try reply.int32(1), row: try reply.int32(2))
    }
}
