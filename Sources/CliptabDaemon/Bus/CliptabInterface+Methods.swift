// SPDX-License-Identifier: MIT
import CliptabCore
import DBus

extension CliptabInterface {
    /// Every method of the contract, in the contract's order: the dispatch table, and with
    /// no service bound, the description the introspection XML is made from.
    ///
    /// Made on each use (twice at most in a daemon's life): the rows' closures are not
    /// `Sendable`, so they cannot be kept in a global.
    static var methods: [CliptabMethod] {
        [
            .immediate("ListTables", [], [arg("names", "as")]) { service, _ in
                [strings(service.tables.listTables())]
            },
            .immediate("CreateTable", [arg("table", "s")], []) { service, a in
                try service.tables.createTable(a.string(0))
                return []
            },
            .immediate("DropTable", [arg("table", "s")], []) { service, a in
                try service.tables.dropTable(a.string(0))
                return []
            },
            .immediate("RenameTable", [arg("table", "s"), arg("new_name", "s")], []) { service, a in
                try service.tables.renameTable(a.string(0), to: a.string(1))
                return []
            },
            .immediate("GetSections", [arg("table", "s")], [arg("sections", "a(ssu)")]) { service, a in
                let sections = try service.tables.sections(of: a.string(0)).map {
                    BusValue.structure([.string($0.header), .string($0.footer), .uint32(UInt32($0.rows))])
                }
                return [.array(elementSignature: "(ssu)", sections)]
            },
            .writing(
                "GetRows", [arg("table", "s"), arg("section", "i"), arg("offset", "u"), arg("limit", "u")],
                [arg("rows", "a(ts)")]
            ) { service, a in
                let rows = try service.tables.rows(
                    of: a.string(0), section: a.int32(1), offset: a.uint32(2), limit: a.uint32(3))
                var size = 0
                for row in rows { size += row.text.utf8.count + 16 }
                try CliptabInterface.checkReplySize(
                    size, what: "the rows", hint: "page with offset and limit")
                // Written straight from the rows: a boxed value per row cost a fifth of the time.
                return { reply in
                    try reply.appendIDTextArray(count: rows.count) { (rows[$0].id, rows[$0].text) }
                }
            },
            .immediate(
                "GetCell", [arg("table", "s"), arg("section", "i"), arg("row", "i")], [arg("text", "s")]
            ) {
                service, a in
                [.string(try service.tables.cell(of: a.string(0), section: a.int32(1), row: a.int32(2)))]
            },
            .immediate("GetRevision", [arg("table", "s")], [arg("revision", "t")]) { service, a in
                [.uint64(try service.tables.revision(of: a.string(0)))]
            },
            .immediate("ExportTable", [arg("table", "s"), arg("format", "s")], [arg("data", "s")]) {
                service, a in
                let data = try service.tables.export(a.string(0), format: a.string(1))
                try CliptabInterface.checkReplySize(
                    data.utf8.count, what: "the export", hint: "export a smaller table")
                return [.string(data)]
            },
            .immediate(
                "ImportTable",
                [arg("table", "s"), arg("format", "s"), arg("data", "s"), arg("replace", "b")],
                [arg("rows", "u")]
            ) { service, a in
                [
                    .uint32(
                        try service.tables.importTable(
                            a.string(0), format: a.string(1), data: a.string(2), replace: a.bool(3)))
                ]
            },
            .immediate(
                "InsertSection",
                [arg("table", "s"), arg("index", "i"), arg("header", "s"), arg("footer", "s")],
                [arg("index", "i")]
            ) { service, a in
                [
                    .int32(
                        try service.tables.insertSection(
                            a.string(0), at: a.int32(1), header: a.string(2), footer: a.string(3)))
                ]
            },
            .immediate("DeleteSections", [arg("table", "s"), arg("sections", "ai")], []) { service, a in
                try service.tables.deleteSections(a.string(0), a.int32s(1))
                return []
            },
            .immediate("MoveSection", [arg("table", "s"), arg("from", "i"), arg("to", "i")], []) {
                service, a in
                try service.tables.moveSection(a.string(0), from: a.int32(1), to: a.int32(2))
                return []
            },
            .immediate("SetHeader", [arg("table", "s"), arg("section", "i"), arg("text", "s")], []) {
                service, a in
                try service.tables.setHeader(a.string(0), section: a.int32(1), text: a.string(2))
                return []
            },
            .immediate("SetFooter", [arg("table", "s"), arg("section", "i"), arg("text", "s")], []) {
                service, a in
                try service.tables.setFooter(a.string(0), section: a.int32(1), text: a.string(2))
                return []
            },
            .immediate("FindSection", [arg("table", "s"), arg("header", "s")], [arg("index", "i")]) {
                service, a in
                [.int32(try service.tables.findSection(a.string(0), header: a.string(1)))]
            },
            .immediate(
                "InsertRow", [arg("table", "s"), arg("section", "i"), arg("row", "i"), arg("text", "s")],
                [arg("id", "t")]
            ) { service, a in
                [
                    .uint64(
                        try service.tables.insertRow(
                            a.string(0), section: a.int32(1), row: a.int32(2), text: a.string(3)))
                ]
            },
            .immediate(
                "InsertRows", [arg("table", "s"), arg("section", "i"), arg("row", "i"), arg("texts", "as")],
                [arg("ids", "at")]
            ) { service, a in
                let ids = try service.tables.insertRows(
                    a.string(0), section: a.int32(1), row: a.int32(2), texts: a.strings(3))
                return [.array(elementSignature: "t", ids.map { .uint64($0) })]
            },
            .immediate(
                "SetCell", [arg("table", "s"), arg("section", "i"), arg("row", "i"), arg("text", "s")], []
            ) { service, a in
                try service.tables.setCell(
                    a.string(0), section: a.int32(1), row: a.int32(2), text: a.string(3))
                return []
            },
            .immediate("DeleteRow", [arg("table", "s"), arg("section", "i"), arg("row", "i")], []) {
                service, a in
                try service.tables.deleteRow(a.string(0), section: a.int32(1), row: a.int32(2))
                return []
            },
            .immediate("DeleteRows", [arg("table", "s"), arg("sections", "ai"), arg("rows", "ai")], []) {
                service, a in
                try service.tables.deleteRows(a.string(0), sections: a.int32s(1), rows: a.int32s(2))
                return []
            },
            .immediate(
                "DeleteWhere", [arg("table", "s"), arg("op", "s"), arg("operand", "s"), arg("dry_run", "b")],
                [arg("paths", "a(ii)")]
            ) { service, a in
                let paths = try service.tables.deleteWhere(
                    a.string(0), op: a.string(1), operand: a.string(2), dryRun: a.bool(3))
                return [
                    .array(
                        elementSignature: "(ii)",
                        paths.map { .structure([.int32($0.section), .int32($0.row)]) })
                ]
            },
            .immediate(
                "MoveRow",
                [
                    arg("table", "s"), arg("from_section", "i"), arg("from_row", "i"), arg("to_section", "i"),
                    arg("to_row", "i"),
                ], []
            ) { service, a in
                try service.tables.moveRow(
                    a.string(0), from: (a.int32(1), a.int32(2)), to: (a.int32(3), a.int32(4)))
                return []
            },
            .immediate("Locate", [arg("id", "t")], [arg("table", "s"), arg("section", "i"), arg("row", "i")])
            {
                service, a in
                let found = try service.tables.locate(a.uint64(0))
                return [.string(found.table), .int32(found.path.section), .int32(found.path.row)]
            },
            .immediate(
                "SetRowName", [arg("table", "s"), arg("section", "i"), arg("row", "i"), arg("name", "s")], []
            ) { service, a in
                try service.tables.setRowName(
                    a.string(0), section: a.int32(1), row: a.int32(2), rowName: a.string(3))
                return []
            },
            .immediate(
                "FindRow", [arg("table", "s"), arg("name", "s")],
                [arg("section", "i"), arg("row", "i"), arg("id", "t")]
            ) { service, a in
                let found = try service.tables.findRow(a.string(0), rowName: a.string(1))
                return [.int32(found.path.section), .int32(found.path.row), .uint64(found.id)]
            },
            .writing("GetRowNames", [arg("table", "s")], [arg("names", "a(ts)")]) { service, a in
                let names = try service.tables.rowNames(of: a.string(0))
                return try CliptabInterface.nameReply(names, hint: "ask GetRowNamesPage for a section's rows")
            },
            .writing(
                "GetRowNamesPage",
                [arg("table", "s"), arg("section", "i"), arg("offset", "u"), arg("limit", "u")],
                [arg("names", "a(ts)")]
            ) { service, a in
                let names = try service.tables.rowNames(
                    of: a.string(0), section: a.int32(1), offset: a.uint32(2), limit: a.uint32(3))
                return try CliptabInterface.nameReply(names, hint: "page with offset and limit")
            },
            .immediate("GetSecret", [arg("table", "s")], [arg("secret", "b")]) { service, a in
                [.boolean(try service.tables.record(of: a.string(0)).isSecret)]
            },
            .writing(
                "GetRowPreviews",
                [
                    arg("table", "s"), arg("section", "i"), arg("offset", "u"), arg("limit", "u"),
                    arg("max_chars", "u"),
                ],
                [arg("rows", "a(ts)")]
            ) { service, a in
                let rows = try service.tables.rows(
                    of: a.string(0), section: a.int32(1), offset: a.uint32(2), limit: a.uint32(3))
                let characters = min(Int(try a.uint32(4)), CliptabInterface.maxPreviewCharacters)
                // Only the start of each text is sent: what a menu shows of a row of megabytes.
                let previews = rows.map { row in
                    let scalars = row.text.unicodeScalars
                    let end =
                        scalars.index(scalars.startIndex, offsetBy: characters, limitedBy: scalars.endIndex)
                        ?? scalars.endIndex
                    return (id: row.id, text: String(scalars[..<end]))
                }
                var size = 0
                for row in previews { size += row.text.utf8.count + 16 }
                try CliptabInterface.checkReplySize(
                    size, what: "the row previews", hint: "page with offset and limit")
                return { reply in
                    try reply.appendIDTextArray(count: previews.count) {
                        (previews[$0].id, previews[$0].text)
                    }
                }
            },
            .immediate(
                "GetActions", [arg("table", "s"), arg("section", "i"), arg("row", "i")],
                [arg("actions", "as")]
            ) { service, a in
                [
                    strings(
                        try service.tables.actions(a.string(0), section: a.int32(1), row: a.int32(2)).map(
                            \.rawValue))
                ]
            },
            .immediate(
                "CanPerformAction",
                [arg("table", "s"), arg("action", "s"), arg("section", "i"), arg("row", "i")],
                [arg("allowed", "b")]
            ) { service, a in
                [
                    .boolean(
                        try service.tables.canPerform(
                            a.string(0), action: a.string(1), section: a.int32(2), row: a.int32(3)))
                ]
            },
            .deferred(
                "PerformAction",
                [arg("table", "s"), arg("action", "s"), arg("section", "i"), arg("row", "i")],
                [arg("text", "s")]
            ) { service, a, done in
                try service.perform(
                    a.string(0), action: a.string(1), section: a.int32(2), row: a.int32(3), completion: done)
            },
            // Deferred since API version 3: a template with {clipboard} reads it first.
            .deferred("Copy", [arg("table", "s"), arg("section", "i"), arg("row", "i")], [arg("text", "s")]) {
                service, a, done in
                try service.copy(a.string(0), section: a.int32(1), row: a.int32(2), completion: done)
            },
            .immediate(
                "CopySection", [arg("table", "s"), arg("section", "i"), arg("separator", "s")],
                [arg("text", "s")]
            ) { service, a in
                [.string(try service.copySection(a.string(0), section: a.int32(1), separator: a.string(2)))]
            },
            .deferred("Cut", [arg("table", "s"), arg("section", "i"), arg("row", "i")], [arg("text", "s")]) {
                service, a, done in
                try service.cut(a.string(0), section: a.int32(1), row: a.int32(2), completion: done)
            },
            .deferred("Paste", [arg("table", "s"), arg("section", "i"), arg("row", "i")], [arg("text", "s")])
            {
                service, a, done in
                try service.paste(a.string(0), section: a.int32(1), row: a.int32(2), completion: done)
            },
            .deferredPaste(
                "PasteToFocus",
                [arg("table", "s"), arg("section", "i"), arg("row", "i"), arg("timeout_ms", "u")],
                [arg("delivered", "b")]
            ) { service, a, done in
                try service.pasteToFocus(
                    a.string(0), section: a.int32(1), row: a.int32(2), timeoutMilliseconds: a.uint32(3),
                    caller: a.sender, completion: done)
            },
            // Added in API version 3: the same paste, answering why it did not deliver.
            .deferredPaste(
                "PasteToFocusWithReason",
                [arg("table", "s"), arg("section", "i"), arg("row", "i"), arg("timeout_ms", "u")],
                [arg("delivered", "b"), arg("reason", "s")]
            ) { service, a, done in
                try service.pasteToFocus(
                    a.string(0), section: a.int32(1), row: a.int32(2), timeoutMilliseconds: a.uint32(3),
                    caller: a.sender, completion: done)
            },
            // Added in API version 3: the window focused now, for a paste into it later.
            .immediate("GetFocusedWindow", [], [arg("window", "t")]) { service, _ in
                [.uint64(service.clipboard.currentFocus() ?? 0)]
            },
            .deferredPaste(
                "PasteToWindow",
                [
                    arg("table", "s"), arg("section", "i"), arg("row", "i"), arg("timeout_ms", "u"),
                    arg("window", "t"),
                ],
                [arg("delivered", "b"), arg("reason", "s")]
            ) { service, a, done in
                let window = try a.uint64(4)
                guard window != 0 else {
                    throw CliptabError(
                        .invalidArgument,
                        "window is 0: call PasteToFocusWithReason to paste where the focus is")
                }
                try service.pasteToFocus(
                    a.string(0), section: a.int32(1), row: a.int32(2), timeoutMilliseconds: a.uint32(3),
                    caller: a.sender, window: window, completion: done)
            },
            .deferred("GetClipboard", [], [arg("text", "s")]) { service, _, done in
                service.clipboardText(completion: done)
            },
            .immediate("ClearClipboard", [], []) { service, _ in
                service.clearClipboard()
                return []
            },
            .immediate("SetAllowedActions", [arg("table", "s"), arg("actions", "as")], []) { service, a in
                try service.tables.setAllowedActions(a.string(0), a.strings(1))
                return []
            },
            .immediate("GetAllowedActions", [arg("table", "s")], [arg("actions", "as")]) { service, a in
                [strings(try service.tables.record(of: a.string(0)).allowedActions.actions.map(\.rawValue))]
            },
            .immediate("SetSecret", [arg("table", "s"), arg("secret", "b")], []) { service, a in
                try service.tables.setSecret(a.string(0), a.bool(1))
                return []
            },
            .immediate("Reload", [], [arg("problems", "as")]) { service, _ in [strings(service.reload())] },
        ] + templateMethods
    }

    /// The most characters of each text `GetRowPreviews` sends.
    static let maxPreviewCharacters = 4096
    /// The reply of (row id, name) pairs, written straight from them, or `LimitExceeded` (with
    /// `hint`) when it would be larger than `maxReplyBytes`.
    static func nameReply(_ names: [(id: UInt64, name: String)], hint: String) throws -> (BusMessage) throws
        -> Void
    {
        var size = 0
        for pair in names { size += pair.name.utf8.count + 16 }
        try checkReplySize(size, what: "the row names", hint: hint)
        return { reply in
            try reply.appendIDTextArray(count: names.count) { (names[$0].id, names[$0].name) }
        }
    }

    /// Refuses a reply larger than `maxReplyBytes`, naming what would have been sent.
    static func checkReplySize(_ size: Int, what: String, hint: String) throws {
        if size > maxReplyBytes {
            throw CliptabError(
                .limitExceeded,
                "\(what) would make a reply of \(size) bytes; the limit is \(maxReplyBytes): \(hint)")
        }
    }
}
