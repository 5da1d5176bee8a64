// SPDX-License-Identifier: MIT
import CliptabContract
import CliptabCore
import DBus

/// The `io.github.cliptab.Cliptab1` interface: one row per method, signal and property, the single source of
/// the dispatch table and of the introspection XML.
///
/// Handlers only decode arguments, call the service, and encode the reply.
public struct CliptabInterface {
    /// The daemon's version string (`Version` property).
    public static let version = "0.1.0"
    /// The largest reply the daemon builds (GetRows, ExportTable, GetCell…): far below the
    /// bus's 128 MiB message limit, so that no reply can be refused by the bus.
    public static let maxReplyBytes = 64 << 20

    private let service: DaemonService

    /// Makes the interface over `service`.
    public init(service: DaemonService) { self.service = service }

    /// The interface description with its handlers.
    public func makeInterface() -> BusInterface {
        BusInterface(
            name: CliptabBus.interface, methods: methods(), signals: Self.signals, properties: properties())
    }

    // MARK: - Signals

    /// Every signal of the contract, with argument names.
    public static let signals: [BusSignal] = [
        BusSignal(name: "TableAdded", arguments: [arg("table", "s")]),
        BusSignal(name: "TableRemoved", arguments: [arg("table", "s")]),
        BusSignal(name: "TableRenamed", arguments: [arg("old_name", "s"), arg("new_name", "s")]),
        BusSignal(
            name: "SectionsInserted",
            arguments: [arg("table", "s"), arg("revision", "t"), arg("sections", "ai")]),
        BusSignal(
            name: "SectionsDeleted",
            arguments: [arg("table", "s"), arg("revision", "t"), arg("sections", "ai")]),
        BusSignal(
            name: "SectionMoved",
            arguments: [arg("table", "s"), arg("revision", "t"), arg("from", "i"), arg("to", "i")]),
        BusSignal(
            name: "SectionChanged", arguments: [arg("table", "s"), arg("revision", "t"), arg("section", "i")]),
        BusSignal(
            name: "RowsInserted",
            arguments: [arg("table", "s"), arg("revision", "t"), arg("sections", "ai"), arg("rows", "ai")]),
        BusSignal(
            name: "RowsDeleted",
            arguments: [arg("table", "s"), arg("revision", "t"), arg("sections", "ai"), arg("rows", "ai")]),
        BusSignal(
            name: "RowMoved",
            arguments: [
                arg("table", "s"), arg("revision", "t"), arg("from_section", "i"), arg("from_row", "i"),
                arg("to_section", "i"), arg("to_row", "i"),
            ]),
        BusSignal(
            name: "RowsChanged",
            arguments: [arg("table", "s"), arg("revision", "t"), arg("sections", "ai"), arg("rows", "ai")]),
        BusSignal(name: "ClipboardChanged", arguments: [arg("owned", "b"), arg("row_id", "t")]),
    ]

    /// The signal name and values for a committed change.
    public static func signal(for event: TableEvent) -> (name: String, values: [BusValue]) {
        func paths(_ list: [IndexPath]) -> [BusValue] {
            [int32s(list.map(\.section)), int32s(list.map(\.row))]
        }
        switch event {
        case .tableAdded(let name): return ("TableAdded", [.string(name)])
        case .tableRemoved(let name): return ("TableRemoved", [.string(name)])
        case .tableRenamed(let old, let new): return ("TableRenamed", [.string(old), .string(new)])
        case .sectionsInserted(let table, let revision, let sections):
            return ("SectionsInserted", [.string(table), .uint64(revision), int32s(sections)])
        case .sectionsDeleted(let table, let revision, let sections):
            return ("SectionsDeleted", [.string(table), .uint64(revision), int32s(sections)])
        case .sectionMoved(let table, let revision, let from, let to):
            return ("SectionMoved", [.string(table), .uint64(revision), .int32(from), .int32(to)])
        case .sectionChanged(let table, let revision, let section):
            return ("SectionChanged", [.string(table), .uint64(revision), .int32(section)])
        case .rowsInserted(let table, let revision, let list):
            return ("RowsInserted", [.string(table), .uint64(revision)] + paths(list))
        case .rowsDeleted(let table, let revision, let list):
            return ("RowsDeleted", [.string(table), .uint64(revision)] + paths(list))
        case .rowMoved(let table, let revision, let from, let to):
            return (
                "RowMoved",
                [
                    .string(table), .uint64(revision), .int32(from.section), .int32(from.row),
                    .int32(to.section),
                    .int32(to.row),
                ]
            )
        case .rowsChanged(let table, let revision, let list):
            return ("RowsChanged", [.string(table), .uint64(revision)] + paths(list))
        }
    }

    // MARK: - Properties

    private func properties() -> [BusProperty] {
        [
            BusProperty(
                name: "Version", signature: "s", access: .read, changeSignal: .const,
                get: { .string(Self.version) }),
            BusProperty(
                name: "ApiVersion", signature: "u", access: .read, changeSignal: .const,
                get: { .uint32(CliptabBus.apiVersion) }),
            BusProperty(
                name: "Tables", signature: "as", access: .read,
                get: { [service] in strings(service.tables.listTables()) }),
            // Added to the contract: who holds the clipboard, for `cliptab status`.
            BusProperty(
                name: "ClipboardOwned", signature: "b", access: .read,
                get: { [service] in .boolean(service.clipboard.isOwned) }),
            BusProperty(
                name: "ClipboardRowId", signature: "t", access: .read,
                get: { [service] in .uint64(service.clipboard.isOwned ? service.copiedRowID : 0) }),
        ]
    }

    // MARK: - Methods

    private func methods() -> [BusMethod] {
        let tables = service.tables
        let service = self.service
        return [
            method("ListTables", [], [arg("names", "as")]) { _ in [strings(tables.listTables())] },
            method("CreateTable", [arg("table", "s")], []) { a in
                try tables.createTable(a.string(0))
                return []
            },
            method("DropTable", [arg("table", "s")], []) { a in
                try tables.dropTable(a.string(0))
                return []
            },
            method("RenameTable", [arg("table", "s"), arg("new_name", "s")], []) { a in
                try tables.renameTable(a.string(0), to: a.string(1))
                return []
            },
            method("GetSections", [arg("table", "s")], [arg("sections", "a(ssu)")]) { a in
                let sections = try tables.sections(of: a.string(0)).map {
                    BusValue.structure([.string($0.header), .string($0.footer), .uint32(UInt32($0.rows))])
                }
                return [.array(elementSignature: "(ssu)", sections)]
            },
            method(
                "GetRows", [arg("table", "s"), arg("section", "i"), arg("offset", "u"), arg("limit", "u")],
                [arg("rows", "a(ts)")]
            ) { a in
                let rows = try tables.rows(
                    of: a.string(0), section: a.int32(1), offset: a.uint32(2), limit: a.uint32(3))
                var size = 0
                for row in rows { size += row.text.utf8.count + 16 }
                try Self.checkReplySize(size, what: "the rows", hint: "page with offset and limit")
                return [
                    .array(
                        elementSignature: "(ts)", rows.map { .structure([.uint64($0.id), .string($0.text)]) })
                ]
            },
            method("GetCell", [arg("table", "s"), arg("section", "i"), arg("row", "i")], [arg("text", "s")]) {
                a in
                [.string(try tables.cell(of: a.string(0), section: a.int32(1), row: a.int32(2)))]
            },
            method("GetRevision", [arg("table", "s")], [arg("revision", "t")]) { a in
                [.uint64(try tables.revision(of: a.string(0)))]
            },
            method("ExportTable", [arg("table", "s"), arg("format", "s")], [arg("data", "s")]) { a in
                let data = try tables.export(a.string(0), format: a.string(1))
                try Self.checkReplySize(data.utf8.count, what: "the export", hint: "export a smaller table")
                return [.string(data)]
            },
            method(
                "ImportTable",
                [arg("table", "s"), arg("format", "s"), arg("data", "s"), arg("replace", "b")],
                [arg("rows", "u")]
            ) { a in
                [
                    .uint32(
                        try tables.importTable(
                            a.string(0), format: a.string(1), data: a.string(2), replace: a.bool(3)))
                ]
            },
            method(
                "InsertSection",
                [arg("table", "s"), arg("index", "i"), arg("header", "s"), arg("footer", "s")],
                [arg("index", "i")]
            ) { a in
                [
                    .int32(
                        try tables.insertSection(
                            a.string(0), at: a.int32(1), header: a.string(2), footer: a.string(3)))
                ]
            },
            method("DeleteSections", [arg("table", "s"), arg("sections", "ai")], []) { a in
                try tables.deleteSections(a.string(0), a.int32s(1))
                return []
            },
            method("MoveSection", [arg("table", "s"), arg("from", "i"), arg("to", "i")], []) { a in
                try tables.moveSection(a.string(0), from: a.int32(1), to: a.int32(2))
                return []
            },
            method("SetHeader", [arg("table", "s"), arg("section", "i"), arg("text", "s")], []) { a in
                try tables.setHeader(a.string(0), section: a.int32(1), text: a.string(2))
                return []
            },
            method("SetFooter", [arg("table", "s"), arg("section", "i"), arg("text", "s")], []) { a in
                try tables.setFooter(a.string(0), section: a.int32(1), text: a.string(2))
                return []
            },
            method("FindSection", [arg("table", "s"), arg("header", "s")], [arg("index", "i")]) { a in
                [.int32(try tables.findSection(a.string(0), header: a.string(1)))]
            },
            method(
                "InsertRow", [arg("table", "s"), arg("section", "i"), arg("row", "i"), arg("text", "s")],
                [arg("id", "t")]
            ) { a in
                [
                    .uint64(
                        try tables.insertRow(
                            a.string(0), section: a.int32(1), row: a.int32(2), text: a.string(3)))
                ]
            },
            method(
                "InsertRows", [arg("table", "s"), arg("section", "i"), arg("row", "i"), arg("texts", "as")],
                [arg("ids", "at")]
            ) { a in
                let ids = try tables.insertRows(
                    a.string(0), section: a.int32(1), row: a.int32(2), texts: a.strings(3))
                return [.array(elementSignature: "t", ids.map { .uint64($0) })]
            },
            method(
                "SetCell", [arg("table", "s"), arg("section", "i"), arg("row", "i"), arg("text", "s")], []
            ) { a in
                try tables.setCell(a.string(0), section: a.int32(1), row: a.int32(2), text: a.string(3))
                return []
            },
            method("DeleteRow", [arg("table", "s"), arg("section", "i"), arg("row", "i")], []) { a in
                try tables.deleteRow(a.string(0), section: a.int32(1), row: a.int32(2))
                return []
            },
            method("DeleteRows", [arg("table", "s"), arg("sections", "ai"), arg("rows", "ai")], []) { a in
                try tables.deleteRows(a.string(0), sections: a.int32s(1), rows: a.int32s(2))
                return []
            },
            method(
                "DeleteWhere", [arg("table", "s"), arg("op", "s"), arg("operand", "s"), arg("dry_run", "b")],
                [arg("paths", "a(ii)")]
            ) { a in
                let paths = try tables.deleteWhere(
                    a.string(0), op: a.string(1), operand: a.string(2), dryRun: a.bool(3))
                return [
                    .array(
                        elementSignature: "(ii)",
                        paths.map { .structure([.int32($0.section), .int32($0.row)]) })
                ]
            },
            method(
                "MoveRow",
                [
                    arg("table", "s"), arg("from_section", "i"), arg("from_row", "i"), arg("to_section", "i"),
                    arg("to_row", "i"),
                ], []
            ) { a in
                try tables.moveRow(a.string(0), from: (a.int32(1), a.int32(2)), to: (a.int32(3), a.int32(4)))
                return []
            },
            method("Locate", [arg("id", "t")], [arg("table", "s"), arg("section", "i"), arg("row", "i")]) {
                a in
                let found = try tables.locate(a.uint64(0))
                return [.string(found.table), .int32(found.path.section), .int32(found.path.row)]
            },
            method(
                "GetActions", [arg("table", "s"), arg("section", "i"), arg("row", "i")],
                [arg("actions", "as")]
            ) { a in
                [
                    strings(
                        try tables.actions(a.string(0), section: a.int32(1), row: a.int32(2)).map(\.rawValue))
                ]
            },
            method(
                "CanPerformAction",
                [arg("table", "s"), arg("action", "s"), arg("section", "i"), arg("row", "i")],
                [arg("allowed", "b")]
            ) { a in
                [
                    .boolean(
                        try tables.canPerform(
                            a.string(0), action: a.string(1), section: a.int32(2), row: a.int32(3)))
                ]
            },
            deferred(
                "PerformAction",
                [arg("table", "s"), arg("action", "s"), arg("section", "i"), arg("row", "i")],
                [arg("text", "s")]
            ) { a, done in
                try service.perform(
                    a.string(0), action: a.string(1), section: a.int32(2), row: a.int32(3), completion: done)
            },
            method("Copy", [arg("table", "s"), arg("section", "i"), arg("row", "i")], [arg("text", "s")]) {
                a in
                [.string(try service.copy(a.string(0), section: a.int32(1), row: a.int32(2)))]
            },
            method(
                "CopySection", [arg("table", "s"), arg("section", "i"), arg("separator", "s")],
                [arg("text", "s")]
            ) { a in
                [.string(try service.copySection(a.string(0), section: a.int32(1), separator: a.string(2)))]
            },
            method("Cut", [arg("table", "s"), arg("section", "i"), arg("row", "i")], [arg("text", "s")]) {
                a in
                [.string(try service.cut(a.string(0), section: a.int32(1), row: a.int32(2)))]
            },
            deferred("Paste", [arg("table", "s"), arg("section", "i"), arg("row", "i")], [arg("text", "s")]) {
                a, done in
                try service.paste(a.string(0), section: a.int32(1), row: a.int32(2), completion: done)
            },
            deferredFlag(
                "PasteToFocus",
                [arg("table", "s"), arg("section", "i"), arg("row", "i"), arg("timeout_ms", "u")],
                [arg("delivered", "b")]
            ) { a, done in
                try service.pasteToFocus(
                    a.string(0), section: a.int32(1), row: a.int32(2), timeoutMilliseconds: a.uint32(3),
                    completion: done)
            },
            deferred("GetClipboard", [], [arg("text", "s")]) { _, done in
                service.clipboardText(completion: done)
            },
            method("ClearClipboard", [], []) { _ in
                service.clearClipboard()
                return []
            },
            method("SetAllowedActions", [arg("table", "s"), arg("actions", "as")], []) { a in
                try tables.setAllowedActions(a.string(0), a.strings(1))
                return []
            },
            method("GetAllowedActions", [arg("table", "s")], [arg("actions", "as")]) { a in
                [strings(try tables.record(of: a.string(0)).allowedActions.actions.map(\.rawValue))]
            },
            method("SetSecret", [arg("table", "s"), arg("secret", "b")], []) { a in
                try tables.setSecret(a.string(0), a.bool(1))
                return []
            },
            method("Reload", [], [arg("problems", "as")]) { _ in [strings(service.reload())] },
        ]
    }

    private static func checkReplySize(_ size: Int, what: String, hint: String) throws {
        if size > maxReplyBytes {
            throw CliptabError(
                .limitExceeded,
                "\(what) would make a reply of \(size) bytes; the limit is \(maxReplyBytes): \(hint)")
        }
    }
}

// MARK: - Table helpers

private func arg(_ name: String, _ signature: String) -> BusArgument {
    BusArgument(name: name, signature: signature)
}

private func strings(_ list: [String]) -> BusValue {
    .array(elementSignature: "s", list.map { .string($0) })
}

private func int32s(_ list: [Int32]) -> BusValue {
    .array(elementSignature: "i", list.map { .int32($0) })
}

/// A method answered at once with the values its handler returns.
private func method(
    _ name: String, _ inputs: [BusArgument], _ outputs: [BusArgument],
    _ handler: @escaping (Arguments) throws -> [BusValue]
) -> BusMethod {
    BusMethod(name: name, inArguments: inputs, outArguments: outputs) { call in
        .values(try handler(Arguments(call.arguments)))
    }
}

/// A method whose handler may finish later (a clipboard read): it gets a completion that
/// sends the text, or the error, whenever it is called.
private func deferred(
    _ name: String, _ inputs: [BusArgument], _ outputs: [BusArgument],
    _ handler: @escaping (Arguments, @escaping (Result<String, Error>) -> Void) throws -> Void
) -> BusMethod {
    BusMethod(name: name, inArguments: inputs, outArguments: outputs) { call in
        try handler(Arguments(call.arguments)) { result in
            switch result {
            case .success(let text): try? call.reply([.string(text)])
            case .failure(let error): try? call.replyError(error)
            }
        }
        return .deferred
    }
}

/// A deferred method answering one boolean (PasteToFocus: delivered or not).
private func deferredFlag(
    _ name: String, _ inputs: [BusArgument], _ outputs: [BusArgument],
    _ handler: @escaping (Arguments, @escaping (Result<Bool, Error>) -> Void) throws -> Void
) -> BusMethod {
    BusMethod(name: name, inArguments: inputs, outArguments: outputs) { call in
        try handler(Arguments(call.arguments)) { result in
            switch result {
            case .success(let flag): try? call.reply([.boolean(flag)])
            case .failure(let error): try? call.replyError(error)
            }
        }
        return .deferred
    }
}

/// Typed access to a call's arguments.
///
/// The dispatcher has already checked the signature, so a mismatch here is a table error, reported as
/// InvalidArgs rather than a crash.
private struct Arguments {
    let values: [BusValue]

    init(_ values: [BusValue]) { self.values = values }

    /// Reads one value with `read`; a mismatch is InvalidArgs naming the argument.
    private func read<T>(_ read: ([BusValue]) throws(BusValueMismatch) -> T) throws -> T {
        do {
            return try read(values)
        } catch {
            throw BusError.invalidArgs("argument \(error.index) should be of type \(error.expected)")
        }
    }

    func string(_ i: Int) throws -> String { try read { v throws(BusValueMismatch) in try v.string(at: i) } }
    func int32(_ i: Int) throws -> Int32 { try read { v throws(BusValueMismatch) in try v.int32(at: i) } }
    func uint32(_ i: Int) throws -> UInt32 { try read { v throws(BusValueMismatch) in try v.uint32(at: i) } }
    func uint64(_ i: Int) throws -> UInt64 { try read { v throws(BusValueMismatch) in try v.uint64(at: i) } }
    func bool(_ i: Int) throws -> Bool { try read { v throws(BusValueMismatch) in try v.boolean(at: i) } }
    func strings(_ i: Int) throws -> [String] {
        try read { v throws(BusValueMismatch) in try v.strings(at: i) }
    }
    func int32s(_ i: Int) throws -> [Int32] { try read { v throws(BusValueMismatch) in try v.int32s(at: i) } }
}
