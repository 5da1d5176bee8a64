// SPDX-License-Identifier: MIT
import CliptabContract
import DBus
import DaemonTestSupport
import Glibc
import Posix
import TestSupport
import Testing

/// Malformed, extreme and random input: every reply is a success or a named error, the
/// daemon stays up, and nothing is lost.
@Suite(.serialized)
struct BadInputTests {
    /// Arguments that succeed (or fail only for the clipboard) on the table `setUp` makes.
    static let validCalls: [String: [BusValue]] = [
        "ListTables": [], "CreateTable": [s("new")], "DropTable": [s("t")], "RenameTable": [s("t"), s("u")],
        "GetSections": [s("t")], "GetRows": [s("t"), i(0), u(0), u(0)], "GetCell": [s("t"), i(0), i(0)],
        "GetRevision": [s("t")], "ExportTable": [s("t"), s("json")],
        "ImportTable": [s("t"), s("lines"), s("x\n"), b(false)],
        "InsertSection": [s("t"), i(0), s("h"), s("f")], "DeleteSections": [s("t"), ai([1])],
        "MoveSection": [s("t"), i(0), i(1)], "SetHeader": [s("t"), i(0), s("h")],
        "SetFooter": [s("t"), i(0), s("f")], "FindSection": [s("t"), s("A")],
        "InsertRow": [s("t"), i(0), i(0), s("x")], "InsertRows": [s("t"), i(0), i(0), strings(["x"])],
        "SetCell": [s("t"), i(0), i(0), s("x")], "DeleteRow": [s("t"), i(0), i(0)],
        "DeleteRows": [s("t"), ai([0]), ai([0])], "DeleteWhere": [s("t"), s("equals"), s("A1"), b(true)],
        "MoveRow": [s("t"), i(0), i(0), i(1), i(0)], "Locate": [t(1)], "GetActions": [s("t"), i(0), i(0)],
        "CanPerformAction": [s("t"), s("copy"), i(0), i(0)],
        "PerformAction": [s("t"), s("delete"), i(0), i(0)], "Copy": [s("t"), i(0), i(0)],
        "CopySection": [s("t"), i(0), s(",")], "Cut": [s("t"), i(0), i(0)], "Paste": [s("t"), i(0), i(0)],
        "PasteToFocus": [s("t"), i(0), i(0), u(0)], "PasteToFocusWithReason": [s("t"), i(0), i(0), u(0)],
        "GetFocusedWindow": [],
        "PasteToWindow": [s("t"), i(0), i(0), u(0), t(1)],
        "GetClipboard": [], "ClearClipboard": [], "SetAllowedActions": [s("t"), strings(["copy"])],
        "GetAllowedActions": [s("t")], "SetSecret": [s("t"), b(true)], "Reload": [],
        "SetRowName": [s("t"), i(0), i(0), s("sig")], "FindRow": [s("t"), s("sig")], "GetRowNames": [s("t")],
        "GetRowPreviews": [s("t"), i(0), u(0), u(0), u(64)],
        "GetRowNamesPage": [s("t"), i(0), u(0), u(0)],
        "GetSecret": [s("t")],
        "SetTemplates": [s("t"), b(false)], "GetTemplates": [s("t")],
        "Expand": [s("t"), i(0), i(0), inputs(["a": "b"])], "GetTemplateInputs": [s("t"), i(0), i(0)],
        "CopyRaw": [s("t"), i(0), i(0)], "CopyWithInputs": [s("t"), i(0), i(0), inputs(["a": "b"])],
        "PasteWithInputs": [s("t"), i(0), i(0), u(0), t(0), inputs(["a": "b"])],
        "PerformActionWithInputs": [s("t"), s("delete"), i(0), i(0), inputs(["a": "b"])],
        "CopyQuiet": [s("t"), i(0), i(0), inputs(["a": "b"]), b(false)],
        "ApplyTable": [
            s("t"), s("sections:\n  - header: A\n    rows: [A1, A2]\n  - header: B\n    rows: [B1]\n"), t(0),
            .dictionary(keySignature: "s", valueSignature: "v", []),
        ],
        "EditCell": [s("t"), i(0), i(0), s("x"), .dictionary(keySignature: "s", valueSignature: "v", [])],
        // A file that is not a match file is skipped: the import adds nothing.
        "ImportSnippets": [
            s("t"), s("/etc/passwd"), s("espanso"), .dictionary(keySignature: "s", valueSignature: "v", []),
        ],
        "ExportSnippets": [s("t"), s("espanso")],
        "StartSequence": [s("t"), i(0), i(0), .dictionary(keySignature: "s", valueSignature: "v", [])],
        "StopSequence": [.dictionary(keySignature: "s", valueSignature: "v", [])],
        "GetSequence": [.dictionary(keySignature: "s", valueSignature: "v", [])],
        "KeyBindings": [.dictionary(keySignature: "s", valueSignature: "v", [])],
        "GetLinks": [.dictionary(keySignature: "s", valueSignature: "v", [])],
        "LinkTable": [s("t"), s(""), .dictionary(keySignature: "s", valueSignature: "v", [])],
        "UnlinkTable": [s("t"), .dictionary(keySignature: "s", valueSignature: "v", [])],
        "FillToFocus": [s("t"), i(0), i(0), .dictionary(keySignature: "s", valueSignature: "v", [])],
    ]

    /// Table "t": section A with A1 A2, section B with B1.
    func setUp(_ daemon: DaemonProcess) throws {
        try daemon.call("ImportTable", [s("t"), s("lines"), s("## A\nA1\nA2\n## B\nB1\n"), b(false)])
    }

    /// A value of another type than `type` (and of another signature).
    static func wrongValue(for type: String) -> BusValue {
        switch type {
        case "s": return .objectPath("/s")
        case "i": return .uint32(0)
        case "u": return .int32(0)
        case "t": return .int64(1)
        case "b": return .byte(1)
        case "ai": return .array(elementSignature: "u", [.uint32(0)])
        case "as": return .array(elementSignature: "o", [.objectPath("/a")])
        default: return .double(1.5)
        }
    }

    @Test func everyMethodIsDeclaredAndHasAValidCall() throws {
        let methods = try declaredMethods()
        #expect(Set(methods.map(\.name)) == Set(Self.validCalls.keys))
        for method in methods {
            #expect(
                Self.validCalls[method.name]?.map(\.signature).joined() == method.inputs.map(\.type).joined(),
                "\(method.name)")
        }
    }

    @Test func wrongSignaturesGetInvalidArgs() throws {
        let daemon = try DaemonProcess()
        try setUp(daemon)
        let before = try daemon.snapshotAll()
        let invalidArgs = "org.freedesktop.DBus.Error.InvalidArgs"
        for method in try declaredMethods() {
            let valid = Self.validCalls[method.name] ?? []
            var variants: [[BusValue]] = [valid + [i(0)], valid + [.variant(s("extra"))]]
            if !valid.isEmpty {
                variants.append([])
                variants.append(Array(valid.dropLast()))
                variants.append(valid.map { .variant($0) })
                variants.append([.structure(valid)])
                variants.append(valid.reversed())
            }
            for index in valid.indices {
                var changed = valid
                changed[index] = Self.wrongValue(for: method.inputs[index].type)
                variants.append(changed)
            }
            for arguments in variants
            where arguments.map(\.signature).joined() != method.inputs.map(\.type).joined() {
                let failure = daemon.failure(method.name, arguments)
                #expect(failure?.name == invalidArgs, "\(method.name) \(arguments)")
                #expect(failure?.message.contains(method.name) == true, "\(failure?.message ?? "")")
            }
        }
        #expect(daemon.errorName("NoSuchMethod") == "org.freedesktop.DBus.Error.UnknownMethod")
        #expect(
            daemon.errorName("getcell", [s("t"), i(0), i(0)]) == "org.freedesktop.DBus.Error.UnknownMethod")
        #expect(try daemon.snapshotAll() == before)
        #expect(daemon.process.isRunning)
    }

    @Test func extremeIndexesAreOutOfRange() throws {
        let daemon = try DaemonProcess()
        try setUp(daemon)
        let before = try daemon.snapshotAll()
        let extremes: [Int32] = [Int32.min, Int32.min + 1, Int32.max, -3, 2, 3, 1000]
        var checked = 0
        for method in try declaredMethods() {
            let valid = Self.validCalls[method.name] ?? []
            for (index, input) in method.inputs.enumerated() where input.type == "i" || input.type == "ai" {
                for extreme in extremes {
                    // 2 is a valid insertion place in section A and in a table of two sections.
                    let insertion = ["InsertRow", "InsertRows", "Paste", "InsertSection"].contains(
                        method.name)
                    if extreme == 2 && insertion && (input.name == "row" || input.name == "index") {
                        continue
                    }
                    var arguments = valid
                    arguments[index] = input.type == "i" ? i(extreme) : ai([extreme])
                    let failure = daemon.failure(method.name, arguments)
                    #expect(
                        failure?.name == CliptabBus.errorPrefix + "IndexOutOfRange",
                        "\(method.name) \(arguments)")
                    #expect(failure?.message.contains("\(extreme)") == true, "\(failure?.message ?? "")")
                    checked += 1
                }
            }
        }
        #expect(checked > 150)
        // Offsets and limits are unsigned: any value is a page, possibly empty.
        #expect(
            try daemon.call("GetRows", [s("t"), i(0), u(UInt32.max), u(UInt32.max)]) == [
                .array(elementSignature: "(ts)", [])
            ])
        #expect(daemon.errorName("Locate", [t(UInt64.max)]) == CliptabBus.errorPrefix + "NoSuchRow")
        #expect(try daemon.snapshotAll() == before)
    }

    @Test func unknownTablesAndInvalidNames() throws {
        let daemon = try DaemonProcess()
        try setUp(daemon)
        let before = try daemon.snapshotAll()
        let creating: Set<String> = ["CreateTable", "ImportTable", "ApplyTable", "ImportSnippets"]
        let names = ["missing", "", "a/b", String(repeating: "x", count: 256), "tab\there", "\u{7F}", "T"]
        for method in try declaredMethods() where method.inputs.first?.name == "table" {
            for name in names {
                let arguments = [s(name)] + (Self.validCalls[method.name] ?? []).dropFirst()
                let failure = daemon.failure(method.name, arguments)
                if creating.contains(method.name) && (name == "missing" || name == "T") {
                    #expect(failure == nil, "\(method.name) \(name)")
                    try daemon.call("DropTable", [s(name)])
                } else if creating.contains(method.name) {
                    #expect(
                        failure?.name == CliptabBus.errorPrefix + "InvalidName",
                        "\(method.name) \(name.debugDescription)")
                } else {
                    #expect(
                        failure?.name == CliptabBus.errorPrefix + "NoSuchTable",
                        "\(method.name) \(name.debugDescription)")
                    // Long names are quoted by their first 64 characters.
                    #expect(
                        name.isEmpty || failure?.message.contains(name.prefix(64)) == true,
                        "\(failure?.message ?? "")")
                }
            }
        }
        for name in names.dropFirst().dropLast() {
            #expect(
                daemon.errorName("RenameTable", [s("t"), s(name)]) == CliptabBus.errorPrefix + "InvalidName",
                "\(name)")
        }
        #expect(try daemon.snapshotAll() == before)
    }

    /// A refusal quotes at most a short prefix of a caller's string: a whole 125 MB name in
    /// `NoSuchTable` once cost 3.5 s and 596 MiB more than a refusal that did not quote it.
    @Test func refusalsQuoteAShortPrefixOfHugeArguments() throws {
        let daemon = try DaemonProcess()
        try setUp(daemon)
        let huge = "n" + String(repeating: "x", count: 1 << 20)
        var refused: Set<String> = []
        for method in try declaredMethods() {
            let valid = Self.validCalls[method.name] ?? []
            for (index, input) in method.inputs.enumerated() where input.type == "s" {
                var arguments = valid
                arguments[index] = s(huge)
                guard let failure = daemon.failure(method.name, arguments) else { continue }
                refused.insert("\(method.name).\(input.name)")
                #expect(
                    failure.message.utf8.count <= 1024,
                    "\(method.name) \(input.name): \(failure.name) of \(failure.message.utf8.count) bytes")
            }
        }
        // The arguments that are looked up or parsed rather than stored are all refused
        // (FindSection's header not always: SetHeader, before it, stores the huge header).
        for expected in [
            "GetRows.table", "FindRow.name", "SetRowName.name", "CanPerformAction.action",
            "DeleteWhere.op", "SetAllowedActions.table", "ExportTable.format",
        ] {
            #expect(refused.contains(expected), "\(expected) was not refused")
        }
        let quoted = daemon.failure("FindRow", [s("t"), s(huge)])?.message ?? ""
        #expect(quoted.contains("nxxx") && quoted.contains("bytes more"), "\(quoted)")
        #expect(daemon.process.isRunning)
    }

    @Test func invalidAndPathologicalRegexes() throws {
        let daemon = try DaemonProcess()
        try setUp(daemon)
        let long = String(repeating: "a", count: 20_000)
        try daemon.call("InsertRows", [s("t"), i(1), i(-1), strings([long, long + "c", "ab" + long])])
        let before = try daemon.snapshotAll()
        let invalid = [
            "(", ")", "[", "[a", "a{2,1}", "a{256}", "*a", "a|*b", "^*", "\\d", "\\1", "[[:nope:]]", "[z-a]",
            "{1}",
        ]
        for pattern in invalid {
            let failure = daemon.failure("DeleteWhere", [s("t"), s("matches"), s(pattern), b(false)])
            #expect(failure?.name == CliptabBus.errorPrefix + "InvalidArgument", "\(pattern.prefix(40))")
            #expect(failure?.message.isEmpty == false)
        }
        let tooLarge = [
            "a{255}{255}", "(a{200}){200}", String(repeating: "(a|b)", count: 10_000),
            String(repeating: "(", count: 300) + "a" + String(repeating: ")", count: 300),
        ]
        for pattern in tooLarge {
            #expect(
                daemon.errorName("DeleteWhere", [s("t"), s("matches"), s(pattern), b(true)])
                    == CliptabBus.errorPrefix + "LimitExceeded", "\(pattern.prefix(40))")
        }
        // Patterns that make backtracking engines explode answer at once here.
        let pathological: [(String, [[Int32]])] = [
            ("(a*)*b", [[1, 3]]), ("(a|a)*c$", [[1, 2]]), ("((a+)+)+c", [[1, 2]]), ("^(a|aa)*$", [[1, 1]]),
            ("^(a?){50}a{50}$", []), ("(.*a){20}", [[1, 1], [1, 2], [1, 3]]),
            ("(x+x+)+y", []),
        ]
        for (pattern, expected) in pathological {
            let start = MonotonicClock.milliseconds()
            let reply = try daemon.call("DeleteWhere", [s("t"), s("matches"), s(pattern), b(true)])
            #expect(try decodePaths(reply) == expected, "\(pattern)")
            #expect(MonotonicClock.milliseconds() - start < 10_000, "\(pattern) took too long")
        }
        #expect(try daemon.snapshotAll() == before)
    }

    @Test func cellsOverTheLimit() throws {
        let daemon = try DaemonProcess()
        try setUp(daemon)
        let limit = 16 << 20
        let atLimit = String(repeating: "x", count: limit)
        let over = atLimit + "y"
        // Multi-byte text counts in bytes: 8 Mi two-byte characters and one more byte.
        let overInBytes = String(repeating: "é", count: limit / 2) + "z"
        let before = try daemon.snapshotAll()
        for text in [over, overInBytes] {
            let calls: [(String, [BusValue])] = [
                ("InsertRow", [s("t"), i(0), i(0), s(text)]),
                ("InsertRows", [s("t"), i(0), i(0), strings(["ok", text])]),
                ("SetCell", [s("t"), i(0), i(0), s(text)]), ("SetHeader", [s("t"), i(0), s(text)]),
                ("SetFooter", [s("t"), i(0), s(text)]), ("InsertSection", [s("t"), i(0), s(""), s(text)]),
                ("ImportTable", [s("t"), s("lines"), s(text), b(true)]),
            ]
            // Bytes, not characters, count: one call is enough to show it.
            for (member, arguments) in text == over ? calls : Array(calls.prefix(1)) {
                let failure = daemon.failure(member, arguments)
                #expect(failure?.name == CliptabBus.errorPrefix + "LimitExceeded", "\(member)")
                #expect(failure?.message.contains("\(limit)") == true, "\(failure?.message ?? "")")
            }
        }
        #expect(try daemon.snapshotAll() == before)
        // Exactly at the limit is stored and read back whole, also after a restart.
        try daemon.call("SetCell", [s("t"), i(0), i(0), s(atLimit)])
        try daemon.call("InsertRow", [s("t"), i(0), i(-1), s(atLimit)])
        try daemon.restart()
        #expect(try daemon.call("GetCell", [s("t"), i(0), i(0)]) == [s(atLimit)])
        // Two cells at the limit join to more than a cell can hold.
        #expect(
            daemon.errorName("CopySection", [s("t"), i(0), s("")]) == CliptabBus.errorPrefix + "LimitExceeded"
        )
        #expect(try daemon.sections("t").map(\.rows) == [3, 1])
        // Replies stay within the bus's limits: over 64 MiB of rows must be paged.
        try daemon.call("InsertRows", [s("t"), i(0), i(-1), strings([atLimit, atLimit])])
        let whole = daemon.failure("GetRows", [s("t"), i(0), u(0), u(0)])
        #expect(whole?.name == CliptabBus.errorPrefix + "LimitExceeded")
        #expect(whole?.message.contains("offset and limit") == true, "\(whole?.message ?? "")")
        let page = try decodeRows(daemon.call("GetRows", [s("t"), i(0), u(1), u(1)]))
        #expect(page.map(\.text) == ["A2"])
        // Previews (API version 3) send the start of each text: the whole section in one
        // small reply, cut by characters, and never more than 4096 of them.
        let prefix = String(atLimit.unicodeScalars.prefix(3))
        let previews = try decodeRows(daemon.call("GetRowPreviews", [s("t"), i(0), u(0), u(0), u(3)]))
        #expect(previews.map(\.text) == [prefix, "A2", prefix, prefix, prefix])
        let widest = try decodeRows(daemon.call("GetRowPreviews", [s("t"), i(0), u(0), u(1), u(UInt32.max)]))
        #expect(widest.map { $0.text.unicodeScalars.count } == [4096])
        try daemon.call("InsertRow", [s("t"), i(1), i(-1), s("äö€😀x")])
        #expect(
            try decodeRows(daemon.call("GetRowPreviews", [s("t"), i(1), u(1), u(1), u(4)])).map(\.text) == [
                "äö€😀"
            ])
        #expect(daemon.process.isRunning)
    }
}
