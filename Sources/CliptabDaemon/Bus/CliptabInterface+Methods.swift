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
                try service.tables.createTable(a.string("table"))
                return []
            },
            .immediate("DropTable", [arg("table", "s")], []) { service, a in
                try service.tables.dropTable(a.string("table"))
                return []
            },
            .immediate("RenameTable", [arg("table", "s"), arg("new_name", "s")], []) { service, a in
                try service.tables.renameTable(a.string("table"), to: a.string("new_name"))
                return []
            },
            .immediate("GetSections", [arg("table", "s")], [arg("sections", "a(ssu)")]) { service, a in
                let sections = try service.tables.sections(of: a.string("table")).map {
                    BusValue.structure([.string($0.header), .string($0.footer), .uint32(UInt32($0.rows))])
                }
                return [.array(elementSignature: "(ssu)", sections)]
            },
            .writing(
                "GetRows", [arg("table", "s"), arg("section", "i"), arg("offset", "u"), arg("limit", "u")],
                [arg("rows", "a(ts)")]
            ) { service, a in
                let rows = try service.tables.rows(
                    of: a.string("table"), section: a.int32("section"), offset: a.uint32("offset"),
                    limit: a.uint32("limit"))
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
                [
                    .string(
                        try service.tables.cell(
                            of: a.string("table"), section: a.int32("section"), row: a.int32("row")))
                ]
            },
            .immediate("GetRevision", [arg("table", "s")], [arg("revision", "t")]) { service, a in
                [.uint64(try service.tables.revision(of: a.string("table")))]
            },
            .immediate("ExportTable", [arg("table", "s"), arg("format", "s")], [arg("data", "s")]) {
                service, a in
                let data = try service.tables.export(a.string("table"), format: a.string("format"))
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
                            a.string("table"), format: a.string("format"), data: a.string("data"),
                            replace: a.bool("replace")))
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
                            a.string("table"), at: a.int32("index"), header: a.string("header"),
                            footer: a.string("footer")))
                ]
            },
            .immediate("DeleteSections", [arg("table", "s"), arg("sections", "ai")], []) { service, a in
                try service.tables.deleteSections(a.string("table"), a.int32s("sections"))
                return []
            },
            .immediate("MoveSection", [arg("table", "s"), arg("from", "i"), arg("to", "i")], []) {
                service, a in
                try service.tables.moveSection(a.string("table"), from: a.int32("from"), to: a.int32("to"))
                return []
            },
            .immediate("SetHeader", [arg("table", "s"), arg("section", "i"), arg("text", "s")], []) {
                service, a in
                try service.tables.setHeader(
                    a.string("table"), section: a.int32("section"), text: a.string("text"))
                return []
            },
            .immediate("SetFooter", [arg("table", "s"), arg("section", "i"), arg("text", "s")], []) {
                service, a in
                try service.tables.setFooter(
                    a.string("table"), section: a.int32("section"), text: a.string("text"))
                return []
            },
            .immediate("FindSection", [arg("table", "s"), arg("header", "s")], [arg("index", "i")]) {
                service, a in
                [.int32(try service.tables.findSection(a.string("table"), header: a.string("header")))]
            },
            .immediate(
                "InsertRow", [arg("table", "s"), arg("section", "i"), arg("row", "i"), arg("text", "s")],
                [arg("id", "t")]
            ) { service, a in
                [
                    .uint64(
                        try service.tables.insertRow(
                            a.string("table"), section: a.int32("section"), row: a.int32("row"),
                            text: a.string("text")))
                ]
            },
            .immediate(
                "InsertRows", [arg("table", "s"), arg("section", "i"), arg("row", "i"), arg("texts", "as")],
                [arg("ids", "at")]
            ) { service, a in
                let ids = try service.tables.insertRows(
                    a.string("table"), section: a.int32("section"), row: a.int32("row"),
                    texts: a.strings("texts"))
                return [.array(elementSignature: "t", ids.map { .uint64($0) })]
            },
            .immediate(
                "SetCell", [arg("table", "s"), arg("section", "i"), arg("row", "i"), arg("text", "s")], []
            ) { service, a in
                try service.tables.setCell(
                    a.string("table"), section: a.int32("section"), row: a.int32("row"),
                    text: a.string("text"))
                return []
            },
            .immediate("DeleteRow", [arg("table", "s"), arg("section", "i"), arg("row", "i")], []) {
                service, a in
                try service.tables.deleteRow(
                    a.string("table"), section: a.int32("section"), row: a.int32("row"))
                return []
            },
            .immediate("DeleteRows", [arg("table", "s"), arg("sections", "ai"), arg("rows", "ai")], []) {
                service, a in
                try service.tables.deleteRows(
                    a.string("table"), sections: a.int32s("sections"), rows: a.int32s("rows"))
                return []
            },
            .immediate(
                "DeleteWhere", [arg("table", "s"), arg("op", "s"), arg("operand", "s"), arg("dry_run", "b")],
                [arg("paths", "a(ii)")]
            ) { service, a in
                let paths = try service.tables.deleteWhere(
                    a.string("table"), op: a.string("op"), operand: a.string("operand"),
                    dryRun: a.bool("dry_run"))
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
                    a.string("table"), from: (a.int32("from_section"), a.int32("from_row")),
                    to: (a.int32("to_section"), a.int32("to_row")))
                return []
            },
            .immediate("Locate", [arg("id", "t")], [arg("table", "s"), arg("section", "i"), arg("row", "i")])
            {
                service, a in
                let found = try service.tables.locate(a.uint64("id"))
                return [.string(found.table), .int32(found.path.section), .int32(found.path.row)]
            },
            .immediate(
                "SetRowName", [arg("table", "s"), arg("section", "i"), arg("row", "i"), arg("name", "s")], []
            ) { service, a in
                try service.tables.setRowName(
                    a.string("table"), section: a.int32("section"), row: a.int32("row"),
                    rowName: a.string("name"))
                return []
            },
            .immediate(
                "FindRow", [arg("table", "s"), arg("name", "s")],
                [arg("section", "i"), arg("row", "i"), arg("id", "t")]
            ) { service, a in
                let found = try service.tables.findRow(a.string("table"), rowName: a.string("name"))
                return [.int32(found.path.section), .int32(found.path.row), .uint64(found.id)]
            },
            .writing("GetRowNames", [arg("table", "s")], [arg("names", "a(ts)")]) { service, a in
                let names = try service.tables.rowNames(of: a.string("table"))
                return try CliptabInterface.nameReply(names, hint: "ask GetRowNamesPage for a section's rows")
            },
            .writing(
                "GetRowNamesPage",
                [arg("table", "s"), arg("section", "i"), arg("offset", "u"), arg("limit", "u")],
                [arg("names", "a(ts)")]
            ) { service, a in
                let names = try service.tables.rowNames(
                    of: a.string("table"), section: a.int32("section"), offset: a.uint32("offset"),
                    limit: a.uint32("limit"))
                return try CliptabInterface.nameReply(names, hint: "page with offset and limit")
            },
            .immediate("GetSecret", [arg("table", "s")], [arg("secret", "b")]) { service, a in
                [.boolean(try service.tables.record(of: a.string("table")).isSecret)]
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
                    of: a.string("table"), section: a.int32("section"), offset: a.uint32("offset"),
                    limit: a.uint32("limit"))
                let characters = min(Int(try a.uint32("max_chars")), CliptabInterface.maxPreviewCharacters)
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
                        try service.tables.actions(
                            a.string("table"), section: a.int32("section"), row: a.int32("row")
                        ).map(
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
                            a.string("table"), action: a.string("action"), section: a.int32("section"),
                            row: a.int32("row")))
                ]
            },
            .deferredUse(
                "PerformAction",
                [arg("table", "s"), arg("action", "s"), arg("section", "i"), arg("row", "i")],
                [arg("text", "s")]
            ) { service, a, done in
                try service.perform(
                    a.string("table"), action: a.string("action"), section: a.int32("section"),
                    row: a.int32("row"), completion: done)
            },
            // Deferred since API version 3: a template with {clipboard} reads it first.
            .deferredUse(
                "Copy", [arg("table", "s"), arg("section", "i"), arg("row", "i")], [arg("text", "s")]
            ) {
                service, a, done in
                try service.copy(
                    a.string("table"), section: a.int32("section"), row: a.int32("row"), completion: done)
            },
            .immediate(
                "CopySection", [arg("table", "s"), arg("section", "i"), arg("separator", "s")],
                [arg("text", "s")]
            ) { service, a in
                [
                    .string(
                        try service.copySection(
                            a.string("table"), section: a.int32("section"), separator: a.string("separator")))
                ]
            },
            .deferredUse(
                "Cut", [arg("table", "s"), arg("section", "i"), arg("row", "i")], [arg("text", "s")]
            ) {
                service, a, done in
                try service.cut(
                    a.string("table"), section: a.int32("section"), row: a.int32("row"), completion: done)
            },
            .deferredUse(
                "Paste", [arg("table", "s"), arg("section", "i"), arg("row", "i")], [arg("text", "s")]
            ) {
                service, a, done in
                try service.paste(
                    a.string("table"), section: a.int32("section"), row: a.int32("row"), completion: done)
            },
            .deferredPaste(
                "PasteToFocus",
                [arg("table", "s"), arg("section", "i"), arg("row", "i"), arg("timeout_ms", "u")],
                [arg("delivered", "b")]
            ) { service, a, done in
                try service.pasteToFocus(
                    a.string("table"), section: a.int32("section"), row: a.int32("row"),
                    timeoutMilliseconds: a.uint32("timeout_ms"),
                    caller: a.sender, completion: done)
            },
            // Added in API version 3: the same paste, answering why it did not deliver.
            .deferredPaste(
                "PasteToFocusWithReason",
                [arg("table", "s"), arg("section", "i"), arg("row", "i"), arg("timeout_ms", "u")],
                [arg("delivered", "b"), arg("reason", "s")]
            ) { service, a, done in
                try service.pasteToFocus(
                    a.string("table"), section: a.int32("section"), row: a.int32("row"),
                    timeoutMilliseconds: a.uint32("timeout_ms"),
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
                let window = try a.uint64("window")
                guard window != 0 else {
                    throw CliptabError(
                        .invalidArgument,
                        "window is 0: call PasteToFocusWithReason to paste where the focus is")
                }
                try service.pasteToFocus(
                    a.string("table"), section: a.int32("section"), row: a.int32("row"),
                    timeoutMilliseconds: a.uint32("timeout_ms"),
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
                try service.tables.setAllowedActions(a.string("table"), a.strings("actions"))
                return []
            },
            .immediate("GetAllowedActions", [arg("table", "s")], [arg("actions", "as")]) { service, a in
                [
                    strings(
                        try service.tables.record(of: a.string("table")).allowedActions.actions.map(
                            \.rawValue))
                ]
            },
            .immediate("SetSecret", [arg("table", "s"), arg("secret", "b")], []) { service, a in
                try service.tables.setSecret(a.string("table"), a.bool("secret"))
                return []
            },
            .reload("Reload", [arg("problems", "as")]),
        ] + templateMethods + documentMethods + importMethods + sequenceMethods + keyMethods + linkMethods
            + fillMethods
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
