// SPDX-License-Identifier: MIT
import CliptabContract
import DBus

/// A cell of a table: the table's name and the cell's index path, as the contract's calls
/// take it.
public struct TableCell: Equatable, Hashable, Sendable {
    /// The table's name.
    public var table: String
    /// The section's index.
    public var section: Int32
    /// The row's index in its section.
    public var row: Int32

    /// Row `row` of section `section` of `table`.
    public init(_ table: String, section: Int32, row: Int32) {
        self.table = table
        self.section = section
        self.row = row
    }

    /// The three arguments every cell's call starts with.
    var arguments: [BusValue] { [.string(table), .int32(section), .int32(row)] }
}

/// A section as `GetSections` describes it.
public struct SectionSummary: Equatable, Sendable {
    /// The header ("" for none).
    public var header: String
    /// The footer ("" for none).
    public var footer: String
    /// How many rows it holds.
    public var rowCount: Int
}

/// A row's name and id, as `GetRowNames` and `GetRowNamesPage` list them.
public struct NamedRow: Equatable, Sendable {
    /// The row's id.
    public var id: UInt64
    /// Its name.
    public var name: String
}

/// An `{input:…}` label of a template row, as `GetTemplateInputs` lists it.
public struct TemplateInput: Equatable, Sendable {
    /// The label.
    public var label: String
    /// Whether the label has a default (`{input:Label=default}`).
    public var hasDefault: Bool
    /// The default, "" for none.
    public var defaultValue: String
}

/// The values given for a template's labels, in order (a later one for a label wins).
public typealias InputValues = [(label: String, value: String)]

/// The text a copy or cut took, and whether it is secret (never to be printed).
public struct TakenText: Equatable, Sendable {
    /// The text; "" where it was not sent back (a quiet copy).
    public var text: String
    /// True for a secret table's row, a text including one, or a quiet copy's.
    public var isSecret: Bool
}

/// Whether a paste reached its window, and the daemon's reason when it did not.
public struct PasteOutcome: Equatable, Sendable {
    /// True when the window fetched the text (or, from a daemon before the reasons, when the
    /// text was copied instead).
    public var delivered: Bool
    /// The daemon's words when it was not delivered ("" when it gave none).
    public var reason: String
}

/// A table's sections, secrecy and rows, as a list of all its rows needs them.
public struct TableListing: Sendable {
    /// The sections.
    public var sections: [SectionSummary]
    /// Whether the table is secret: its rows' text is then never shown.
    public var isSecret: Bool
    /// Each section's rows, their text cut to the preview length asked for.
    public var rows: [[BusIDText]]
}

/// The contract's calls (`docs/dbus-api.md`, API versions 1–4), one method each, typed in and
/// out; the methods that answer for more than one call fall back to the calls of an earlier
/// API version here, and only here.
extension CliptabClient {
    // MARK: - Tables

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

    // MARK: - Sections

    /// `GetSections`.
    public func sections(_ table: String) throws(ClientFailure) -> [SectionSummary] {
        try Self.sections(call("GetSections", [.string(table)]))
    }

    /// The sections of a `GetSections` reply.
    private static func sections(_ reply: DaemonReply) throws(ClientFailure) -> [SectionSummary] {
        var sections: [SectionSummary] = []
        for fields in try reply.structures(0, "a(ssu)") {
            let section = DaemonReply(member: reply.member, values: fields)
            sections.append(
                SectionSummary(
                    header: try section.string(0), footer: try section.string(1),
                    rowCount: Int(try section.uint32(2))))
        }
        return sections
    }

    /// `InsertSection` at `index` (-1: at the end): the index it took.
    public func insertSection(_ table: String, at index: Int32, header: String, footer: String)
        throws(ClientFailure) -> Int32
    {
        try call("InsertSection", [.string(table), .int32(index), .string(header), .string(footer)]).int32(0)
    }

    /// `DeleteSections`.
    public func deleteSections(_ table: String, _ sections: [Int32]) throws(ClientFailure) {
        try call(
            "DeleteSections", [.string(table), .array(elementSignature: "i", sections.map { .int32($0) })])
    }

    /// `MoveSection`.
    public func moveSection(_ table: String, from source: Int32, to destination: Int32) throws(ClientFailure)
    {
        try call("MoveSection", [.string(table), .int32(source), .int32(destination)])
    }

    /// `SetHeader`.
    public func setHeader(_ table: String, section: Int32, _ text: String) throws(ClientFailure) {
        try call("SetHeader", [.string(table), .int32(section), .string(text)])
    }

    /// `SetFooter`.
    public func setFooter(_ table: String, section: Int32, _ text: String) throws(ClientFailure) {
        try call("SetFooter", [.string(table), .int32(section), .string(text)])
    }

    /// `FindSection`: the index of the section with `header`.
    public func findSection(_ table: String, header: String) throws(ClientFailure) -> Int32 {
        try call("FindSection", [.string(table), .string(header)]).int32(0)
    }

    /// `CopySection`: its rows joined by `separator`, copied.
    public func copySection(_ table: String, section: Int32, separator: String) throws(ClientFailure)
        -> String
    {
        try call("CopySection", [.string(table), .int32(section), .string(separator)]).string(0)
    }

    // MARK: - Rows

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
    private static func page(_ table: String, _ section: Int32, _ offset: UInt32, _ limit: UInt32)
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

    // MARK: - Row names

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

    // MARK: - Actions

    /// `GetActions`: the cell's actions, in the daemon's order.
    public func actions(_ cell: TableCell) throws(ClientFailure) -> [String] {
        try call("GetActions", cell.arguments).strings(0)
    }

    /// `CanPerformAction`.
    public func canPerform(_ action: String, _ cell: TableCell) throws(ClientFailure) -> Bool {
        try call(
            "CanPerformAction",
            [.string(cell.table), .string(action), .int32(cell.section), .int32(cell.row)]
        )
        .boolean(0)
    }

    /// `PerformAction`: its text.
    @discardableResult
    public func perform(_ action: String, _ cell: TableCell) throws(ClientFailure) -> String {
        try call(
            "PerformAction", [.string(cell.table), .string(action), .int32(cell.section), .int32(cell.row)]
        )
        .string(0)
    }

    /// `PerformActionWithInputs`: its text, and whether that is secret.
    public func perform(_ action: String, _ cell: TableCell, inputs: InputValues) throws(ClientFailure)
        -> TakenText
    {
        let reply = try call(
            "PerformActionWithInputs",
            [
                .string(cell.table), .string(action), .int32(cell.section), .int32(cell.row),
                Self.inputs(inputs),
            ])
        return TakenText(text: try reply.string(0), isSecret: try reply.boolean(1))
    }

    /// `Copy`: the text copied.
    @discardableResult
    public func copy(_ cell: TableCell) throws(ClientFailure) -> String {
        try call("Copy", cell.arguments).string(0)
    }

    /// `CopyWithInputs`: the text copied, filled in.
    @discardableResult
    public func copy(_ cell: TableCell, inputs: InputValues) throws(ClientFailure) -> String {
        try call("CopyWithInputs", cell.arguments + [Self.inputs(inputs)]).string(0)
    }

    /// `CopyRaw`: the stored text copied, not filled in.
    public func copyRaw(_ cell: TableCell) throws(ClientFailure) -> String {
        try call("CopyRaw", cell.arguments).string(0)
    }

    /// `CopyQuiet`: the number of bytes copied.
    @discardableResult
    public func copyQuietly(_ cell: TableCell, inputs: InputValues, raw: Bool) throws(ClientFailure) -> UInt64
    {
        try call("CopyQuiet", cell.arguments + [Self.inputs(inputs), .boolean(raw)]).uint64(0)
    }

    /// Copies the cell (filled in with `inputs`, or as stored when `raw`) by the newest call
    /// the daemon has: the text, unless `quiet` (then "", marked secret), and whether it is
    /// secret.
    ///
    /// `CopyQuiet` (API version 4) copies without sending the text back; else
    /// `PerformActionWithInputs` (API version 4) says whether the text is secret; with a daemon
    /// of an earlier version `CopyRaw`, `Copy` or `CopyWithInputs` copy, and only a secret
    /// table's text counts as secret.
    public func copy(_ cell: TableCell, inputs: InputValues, raw: Bool, quiet: Bool) throws(ClientFailure)
        -> TakenText
    {
        if quiet {
            do throws(ClientFailure) {
                try copyQuietly(cell, inputs: inputs, raw: raw)
                return TakenText(text: "", isSecret: true)
            } catch  where error.isUnknownMethod {}
        }
        if raw {
            let text = try copyRaw(cell)
            return TakenText(text: text, isSecret: quiet ? true : try isSecret(cell.table))
        }
        do throws(ClientFailure) {
            return try perform("copy", cell, inputs: inputs)
        } catch  where error.isUnknownMethod {
            let text = inputs.isEmpty ? try copy(cell) : try copy(cell, inputs: inputs)
            return TakenText(text: text, isSecret: quiet ? true : try isSecret(cell.table))
        }
    }

    /// `Cut`: the text cut.
    @discardableResult
    public func cut(_ cell: TableCell) throws(ClientFailure) -> String {
        try call("Cut", cell.arguments).string(0)
    }

    /// Cuts the cell by the newest call the daemon has: the text, and whether it is secret.
    ///
    /// `PerformActionWithInputs` (API version 4) says it; before that `Cut`, where only a secret
    /// table's text counts as secret, asked before the cut (afterwards the table might be
    /// gone). With `quiet` the secrecy is not asked (the text is not printed).
    public func cut(_ cell: TableCell, quiet: Bool) throws(ClientFailure) -> TakenText {
        do throws(ClientFailure) {
            return try perform("cut", cell, inputs: [])
        } catch  where error.isUnknownMethod {
            let secret = quiet ? true : try isSecret(cell.table)
            return TakenText(text: try cut(cell), isSecret: secret)
        }
    }

    /// `Paste`: the text pasted into the clipboard's owner's window.
    public func paste(_ cell: TableCell) throws(ClientFailure) -> String {
        try call("Paste", cell.arguments).string(0)
    }

    /// `PasteToFocus`, waiting `timeout` milliseconds (0: the configured wait).
    @discardableResult
    public func pasteToFocus(_ cell: TableCell, timeout: UInt32 = 0) throws(ClientFailure) -> Bool {
        try call("PasteToFocus", cell.arguments + [.uint32(timeout)]).boolean(0)
    }

    /// `PasteToFocusWithReason`.
    public func pasteToFocusWithReason(_ cell: TableCell, timeout: UInt32 = 0) throws(ClientFailure)
        -> PasteOutcome
    {
        try Self.outcome(call("PasteToFocusWithReason", cell.arguments + [.uint32(timeout)]))
    }

    /// `PasteToWindow`: into `window`, focused first.
    public func paste(_ cell: TableCell, toWindow window: UInt64, timeout: UInt32 = 0) throws(ClientFailure)
        -> PasteOutcome
    {
        try Self.outcome(call("PasteToWindow", cell.arguments + [.uint32(timeout), .uint64(window)]))
    }

    /// `PasteWithInputs`: into `window` (0: the focused one), filled in with `inputs`.
    public func paste(_ cell: TableCell, inputs: InputValues, window: UInt64 = 0, timeout: UInt32 = 0)
        throws(ClientFailure) -> PasteOutcome
    {
        try Self.outcome(
            call(
                "PasteWithInputs", cell.arguments + [.uint32(timeout), .uint64(window), Self.inputs(inputs)]))
    }

    /// Pastes the cell into `window` (0: wherever the focus is) by the newest call the daemon
    /// has: `PasteToWindow` or `PasteToFocusWithReason`; `PasteToFocus` before API version 3
    /// (no reason); copying, the next best thing, before `PasteToFocus`.
    public func paste(_ cell: TableCell, window: UInt64) throws(ClientFailure) -> PasteOutcome {
        do throws(ClientFailure) {
            return window != 0 ? try paste(cell, toWindow: window) : try pasteToFocusWithReason(cell)
        } catch  where error.isUnknownMethod {
            do throws(ClientFailure) {
                return PasteOutcome(delivered: try pasteToFocus(cell), reason: "")
            } catch  where error.isUnknownMethod {
                try copy(cell)
                return PasteOutcome(delivered: true, reason: "")
            }
        }
    }

    /// The outcome of a `(bs)` paste reply.
    private static func outcome(_ reply: DaemonReply) throws(ClientFailure) -> PasteOutcome {
        PasteOutcome(delivered: try reply.boolean(0), reason: try reply.string(1))
    }

    /// `GetFocusedWindow`: the window focused now, 0 for none.
    public func focusedWindow() throws(ClientFailure) -> UInt64 { try call("GetFocusedWindow").uint64(0) }

    /// `GetClipboard`: the clipboard's text.
    public func clipboard() throws(ClientFailure) -> String { try call("GetClipboard").string(0) }

    // MARK: - Templates

    /// `Expand`: the cell's text filled in with `inputs`.
    public func expand(_ cell: TableCell, inputs: InputValues) throws(ClientFailure) -> String {
        try call("Expand", cell.arguments + [Self.inputs(inputs)]).string(0)
    }

    /// `GetTemplateInputs`: the cell's `{input:…}` labels; none from a daemon without
    /// templates (API version 2).
    public func templateInputs(_ cell: TableCell) throws(ClientFailure) -> [TemplateInput] {
        let reply: DaemonReply
        do throws(ClientFailure) {
            reply = try call("GetTemplateInputs", cell.arguments)
        } catch  where error.isUnknownMethod {
            return []
        }
        var inputs: [TemplateInput] = []
        for fields in try reply.structures(0, "a(sbs)") {
            let input = DaemonReply(member: reply.member, values: fields)
            inputs.append(
                TemplateInput(
                    label: try input.string(0), hasDefault: try input.boolean(1),
                    defaultValue: try input.string(2)))
        }
        return inputs
    }

    /// `inputs` as the bus's `a{ss}`.
    static func inputs(_ inputs: InputValues) -> BusValue {
        .dictionary(
            keySignature: "s", valueSignature: "s", inputs.map { (.string($0.label), .string($0.value)) })
    }

    /// `options` as the bus's `a{sv}`.
    static func options(_ options: [String: BusValue]) -> BusValue {
        .dictionary(
            keySignature: "s", valueSignature: "v",
            options.sorted { $0.key < $1.key }.map { (.string($0.key), .variant($0.value)) })
    }

    // MARK: - The daemon

    /// `Reload`: the problems found in the configuration.
    public func reload() throws(ClientFailure) -> [String] { try call("Reload").strings(0) }

    /// `org.freedesktop.DBus.Properties.GetAll` of the cliptab interface: each property's
    /// name and value, in the daemon's order.
    public func properties() throws(ClientFailure) -> [(String, BusValue)] {
        let reply = try call(
            "GetAll", [.string(CliptabBus.interface)], interface: "org.freedesktop.DBus.Properties")
        guard case .dictionary(_, _, let entries)? = reply.values.first else {
            throw .unexpectedReply(member: reply.member, BusValueMismatch(index: 0, expected: "a{sv}"))
        }
        var properties: [(String, BusValue)] = []
        for (key, value) in entries {
            guard case .string(let name) = key else { continue }
            if case .variant(let inner) = value {
                properties.append((name, inner))
            } else {
                properties.append((name, value))
            }
        }
        return properties
    }

    /// `org.freedesktop.DBus.Peer.Ping`: whether the daemon answers.
    public func ping() throws(ClientFailure) { try call("Ping", interface: "org.freedesktop.DBus.Peer") }
}
