// SPDX-License-Identifier: MIT
import CliptabContract
import DBus
import DaemonTestSupport
import Glibc
import Posix
import TestSupport
import Testing

/// What a scripted call must answer.
enum ToolExpectation {
    /// These values.
    case reply([BusValue])
    /// This cliptab (or standard D-Bus) error name.
    case error(String)
    /// What the project's own module answers for the same call (reads only).
    case sameAsModule
}

/// The daemon called through `dbus-send` (every method at least once) and `busctl`, on a
/// private bus; each reply is compared, as the tool prints it, with the expected values.
@Suite(.serialized)
struct CommandLineToolTests {
    /// A script over a fresh store (so row ids are 1, 2, 3…) that calls every method of the
    /// interface; dbus-send cannot send empty arrays, so none is used.
    static let script: [(String, [BusValue], ToolExpectation)] = [
        ("ListTables", [], .reply([strings([])])),
        ("CreateTable", [s("snippets")], .reply([])),
        ("CreateTable", [s("snippets")], .error(CliptabBus.errorPrefix + "TableExists")),
        ("CreateTable", [s("a/b")], .error(CliptabBus.errorPrefix + "InvalidName")),
        ("InsertRow", [s("snippets"), i(0), i(-1), s("hello, world")], .reply([t(1)])),
        (
            "InsertRows", [s("snippets"), i(0), i(-1), strings(["a", "b"])],
            .reply([.array(elementSignature: "t", [t(2), t(3)])])
        ),
        ("InsertSection", [s("snippets"), i(-1), s("Shell"), s("")], .reply([i(1)])),
        ("SetHeader", [s("snippets"), i(0), s("Greetings")], .reply([])),
        ("SetFooter", [s("snippets"), i(1), s("end")], .reply([])),
        (
            "GetSections", [s("snippets")],
            .reply([
                .array(
                    elementSignature: "(ssu)",
                    [.structure([s("Greetings"), s(""), u(3)]), .structure([s("Shell"), s("end"), u(0)])])
            ])
        ),
        (
            "GetRows", [s("snippets"), i(0), u(1), u(0)],
            .reply([
                .array(elementSignature: "(ts)", [.structure([t(2), s("a")]), .structure([t(3), s("b")])])
            ])
        ),
        ("GetCell", [s("snippets"), i(0), i(-1)], .reply([s("b")])),
        (
            "SetCell", [s("snippets"), i(0), i(1), s("tab\there \"quoted\" back\\slash\nnext line")],
            .reply([])
        ),
        ("GetCell", [s("snippets"), i(0), i(1)], .reply([s("tab\there \"quoted\" back\\slash\nnext line")])),
        ("GetCell", [s("snippets"), i(0), i(99)], .error(CliptabBus.errorPrefix + "IndexOutOfRange")),
        (
            "GetCell", [s("snippets"), i(Int32.min), i(Int32.max)],
            .error(CliptabBus.errorPrefix + "IndexOutOfRange")
        ),
        ("GetCell", [s("missing"), i(0), i(0)], .error(CliptabBus.errorPrefix + "NoSuchTable")),
        ("ExportSnippets", [s("missing"), s("espanso")], .error(CliptabBus.errorPrefix + "NoSuchTable")),
        ("GetCell", [s("snippets"), i(0), s("0")], .error("org.freedesktop.DBus.Error.InvalidArgs")),
        ("GetCell", [s("snippets"), i(0)], .error("org.freedesktop.DBus.Error.InvalidArgs")),
        ("NoSuchMethod", [s("snippets")], .error("org.freedesktop.DBus.Error.UnknownMethod")),
        ("MoveRow", [s("snippets"), i(0), i(0), i(1), i(0)], .reply([])),
        ("MoveSection", [s("snippets"), i(1), i(0)], .reply([])),
        ("FindSection", [s("snippets"), s("Greetings")], .reply([i(1)])),
        ("FindSection", [s("snippets"), s("Nope")], .error(CliptabBus.errorPrefix + "NoSuchSection")),
        ("Locate", [t(1)], .reply([s("snippets"), i(0), i(0)])),
        ("Locate", [t(99)], .error(CliptabBus.errorPrefix + "NoSuchRow")),
        ("GetRevision", [s("snippets")], .reply([t(8)])),
        (
            "GetActions", [s("snippets"), i(0), i(0)],
            .reply([strings(["copy", "cut", "paste", "delete", "move", "edit", "insert"])])
        ),
        ("CanPerformAction", [s("snippets"), s("move"), i(0), i(0)], .reply([b(true)])),
        (
            "CanPerformAction", [s("snippets"), s("fly"), i(0), i(0)],
            .error(CliptabBus.errorPrefix + "InvalidArgument")
        ),
        (
            "SetAllowedActions", [s("snippets"), strings(["insert", "copy", "delete", "move", "edit"])],
            .reply([])
        ),
        (
            "GetAllowedActions", [s("snippets")],
            .reply([strings(["copy", "delete", "move", "edit", "insert"])])
        ),
        ("CanPerformAction", [s("snippets"), s("cut"), i(0), i(0)], .reply([b(false)])),
        ("Cut", [s("snippets"), i(0), i(0)], .error(CliptabBus.errorPrefix + "NotPermitted")),
        ("Paste", [s("snippets"), i(0), i(-1)], .error(CliptabBus.errorPrefix + "NotPermitted")),
        ("Copy", [s("snippets"), i(0), i(0)], .error(CliptabBus.errorPrefix + "ClipboardUnavailable")),
        (
            "PasteToFocus", [s("snippets"), i(0), i(0), u(0)],
            .error(CliptabBus.errorPrefix + "ClipboardUnavailable")
        ),
        (
            "PasteToFocusWithReason", [s("snippets"), i(0), i(0), u(0)],
            .error(CliptabBus.errorPrefix + "ClipboardUnavailable")
        ),
        ("GetFocusedWindow", [], .reply([t(0)])),
        (
            "PasteToWindow", [s("snippets"), i(0), i(0), u(0), t(1)],
            .error(CliptabBus.errorPrefix + "ClipboardUnavailable")
        ),
        (
            "CopySection", [s("snippets"), i(1), s(", ")],
            .error(CliptabBus.errorPrefix + "ClipboardUnavailable")
        ),
        (
            "PerformAction", [s("snippets"), s("copy"), i(0), i(0)],
            .error(CliptabBus.errorPrefix + "ClipboardUnavailable")
        ),
        ("GetClipboard", [], .error(CliptabBus.errorPrefix + "ClipboardUnavailable")),
        ("ClearClipboard", [], .reply([])),
        ("SetSecret", [s("snippets"), b(true)], .reply([])),
        ("GetSecret", [s("snippets")], .reply([b(true)])),
        ("SetRowName", [s("snippets"), i(0), i(0), s("hello")], .reply([])),
        (
            "SetRowName", [s("snippets"), i(0), i(0), s("0:1")],
            .error(CliptabBus.errorPrefix + "InvalidName")
        ),
        ("FindRow", [s("snippets"), s("hello")], .reply([i(0), i(0), t(1)])),
        ("FindRow", [s("snippets"), s("nope")], .error(CliptabBus.errorPrefix + "NoSuchRow")),
        (
            "GetRowNames", [s("snippets")],
            .reply([.array(elementSignature: "(ts)", [.structure([t(1), s("hello")])])])
        ),
        (
            "GetRowPreviews", [s("snippets"), i(0), u(0), u(1), u(5)],
            .reply([.array(elementSignature: "(ts)", [.structure([t(1), s("hello")])])])
        ),
        (
            "GetRowNamesPage", [s("snippets"), i(0), u(0), u(1)],
            .reply([.array(elementSignature: "(ts)", [.structure([t(1), s("hello")])])])
        ),
        (
            "DeleteWhere", [s("snippets"), s("prefix"), s("tab"), b(true)],
            .reply([.array(elementSignature: "(ii)", [.structure([i(1), i(0)])])])
        ),
        (
            "DeleteWhere", [s("snippets"), s("matches"), s("("), b(true)],
            .error(CliptabBus.errorPrefix + "InvalidArgument")
        ),
        ("ExportTable", [s("snippets"), s("tsv")], .sameAsModule),
        ("ExportTable", [s("snippets"), s("json")], .sameAsModule),
        ("ExportTable", [s("snippets"), s("lines")], .error(CliptabBus.errorPrefix + "InvalidArgument")),
        ("ImportTable", [s("imported"), s("lines"), s("x\n## H\ny\n"), b(false)], .reply([u(2)])),
        ("ExportTable", [s("imported"), s("lines")], .reply([s("x\n## H\ny\n")])),
        ("DeleteSections", [s("imported"), i(0).asArray], .reply([])),
        ("SetCell", [s("snippets"), i(1), i(0), s("7")], .reply([])),
        (
            "DeleteWhere", [s("snippets"), s(">"), s("2"), b(false)],
            .reply([.array(elementSignature: "(ii)", [.structure([i(1), i(0)])])])
        ),
        ("DeleteRow", [s("snippets"), i(1), i(-1)], .reply([])),
        ("DeleteRows", [s("snippets"), ai([0]), ai([0])], .reply([])),
        ("InsertRow", [s("snippets"), i(0), i(0), s("last")], .reply([t(6)])),
        ("PerformAction", [s("snippets"), s("delete"), i(0), i(0)], .reply([s("last")])),
        ("GetSections", [s("snippets")], .sameAsModule),
        ("GetRows", [s("snippets"), i(0), u(0), u(0)], .sameAsModule),
        ("RenameTable", [s("imported"), s("renamed")], .reply([])),
        ("ListTables", [], .reply([strings(["renamed", "snippets"])])),
        ("DropTable", [s("renamed")], .reply([])),
        ("DropTable", [s("renamed")], .error(CliptabBus.errorPrefix + "NoSuchTable")),
        // Templates (API version 3).
        ("ImportTable", [s("tpl"), s("lines"), s("Hi {input:Name=you}!\n"), b(false)], .reply([u(1)])),
        ("GetTemplates", [s("tpl")], .reply([b(false)])),
        ("SetTemplates", [s("tpl"), b(true)], .reply([])),
        ("GetTemplates", [s("tpl")], .reply([b(true)])),
        ("SetTemplates", [s("ghost"), b(true)], .error(CliptabBus.errorPrefix + "NoSuchTable")),
        ("SetCell", [s("tpl"), i(0), i(0), s("bad {")], .error(CliptabBus.errorPrefix + "InvalidTemplate")),
        ("Expand", [s("tpl"), i(0), i(0), inputs(["Name": "Ann"])], .reply([s("Hi Ann!")])),
        (
            "GetTemplateInputs", [s("tpl"), i(0), i(0)],
            .reply([.array(elementSignature: "(sbs)", [.structure([s("Name"), b(true), s("you")])])])
        ),
        ("CopyRaw", [s("tpl"), i(0), i(0)], .error(CliptabBus.errorPrefix + "ClipboardUnavailable")),
        (
            "CopyWithInputs", [s("tpl"), i(0), i(0), inputs(["Name": "Ann"])],
            .error(CliptabBus.errorPrefix + "ClipboardUnavailable")
        ),
        (
            "PasteWithInputs", [s("tpl"), i(0), i(0), u(0), t(0), inputs(["Name": "Ann"])],
            .error(CliptabBus.errorPrefix + "ClipboardUnavailable")
        ),
        (
            "CopyQuiet", [s("tpl"), i(0), i(0), inputs(["Name": "Ann"]), b(false)],
            .error(CliptabBus.errorPrefix + "ClipboardUnavailable")
        ),
        // Whether the text of an action is secret (API version 4).
        (
            "PerformActionWithInputs", [s("tpl"), s("delete"), i(0), i(0), inputs(["Name": "Ann"])],
            .reply([s("Hi {input:Name=you}!"), b(false)])
        ),
        ("Reload", [], .reply([strings([])])),
    ]

    @Test func theScriptCallsEveryMethod() throws {
        let declared = Set(try declaredMethods().map(\.name))
        #expect(declared.count >= 37)
        // The a{sv} options of ApplyTable, EditCell, ImportSnippets, FillToFocus, the
        // sequences', the keys' and the links' methods cannot be written with dbus-send (no
        // variant inside a container); the end-to-end tests of `cliptab apply`, `edit`, `import
        // --from`, `fill`, `copy --sequence`, `sequence`, `keys`, `link`, `unlink` and `status`
        // call them.
        #expect(
            declared.subtracting(Self.script.map(\.0)) == [
                "ApplyTable", "EditCell", "ImportSnippets", "StartSequence", "StopSequence", "GetSequence",
                "KeyBindings", "GetLinks", "LinkTable", "UnlinkTable", "FillToFocus",
            ])
    }

    /// Runs the script through `tool`, comparing printed replies and error names.
    func run(_ tool: CommandLineTool) throws {
        let daemon = try DaemonProcess()
        for (member, arguments, expectation) in Self.script {
            let context = "\(tool.name) \(member) \(arguments)"
            let result = try tool.run(daemon, member, arguments)
            let expected: [BusValue]
            switch expectation {
            case .reply(let values): expected = values
            case .sameAsModule: expected = try daemon.call(member, arguments)
            case .error(let name):
                #expect(result.termination != .exited(0), "\(context)")
                // busctl prints only the message: it must be the one the daemon sends.
                let failure = daemon.failure(member, arguments)
                #expect(failure?.name == name, "\(context)")
                #expect(
                    result.errorText == tool.renderError(name: name, message: failure?.message ?? ""),
                    "\(context)")
                continue
            }
            #expect(result.termination == .exited(0), "\(context): \(result.errorText)")
            #expect(tool.printedValues(result.outputText) == tool.renderReply(expected), "\(context)")
        }
        #expect(daemon.process.isRunning)
    }

    @Test func dbusSend() throws {
        try run(DBusSend())
    }

    @Test func busctl() throws {
        try run(Busctl())
    }

    /// The standard interfaces through dbus-send: Introspect, Properties and Peer.
    @Test func standardInterfacesThroughDBusSend() throws {
        let daemon = try DaemonProcess()
        try daemon.call("CreateTable", [s("one")])
        func send(_ method: String, _ arguments: [String]) throws -> String {
            let result = try ChildProcess.run(
                "dbus-send",
                ["--session", "--print-reply=literal", "--dest=\(CliptabBus.name)", CliptabBus.path, method]
                    + arguments,
                environment: daemon.environment)
            #expect(result.termination == .exited(0), "\(method): \(result.errorText)")
            return result.outputText
        }
        let xml = try readFile(repositoryFile("Sources/CliptabDaemon/Bus/io.github.cliptab.Cliptab1.xml"))
        #expect(try send("org.freedesktop.DBus.Introspectable.Introspect", []) == "   " + xml)
        #expect(
            try send(
                "org.freedesktop.DBus.Properties.Get",
                ["string:\(CliptabBus.interface)", "string:ApiVersion"])
                == "   variant       uint32 4\n")
        let all = try send("org.freedesktop.DBus.Properties.GetAll", ["string:\(CliptabBus.interface)"])
        #expect(all.contains("Tables") && all.contains("one") && all.contains("ApiVersion"))
        #expect(try send("org.freedesktop.DBus.Peer.Ping", []) == "")
    }
}

extension BusValue {
    /// This value as the single element of an array.
    var asArray: BusValue { .array(elementSignature: signature, [self]) }
}

/// A command-line D-Bus client: how it is called and how it prints.
protocol CommandLineTool {
    var name: String { get }
    func arguments(_ member: String, _ values: [BusValue], address: String) -> [String]
    func renderReply(_ values: [BusValue]) -> String
    func printedValues(_ output: String) -> String
    func renderError(name: String, message: String) -> String
}

extension CommandLineTool {
    func run(_ daemon: DaemonProcess, _ member: String, _ values: [BusValue]) throws -> CommandResult {
        let result = try ChildProcess.run(
            name, arguments(member, values, address: daemon.bus.address), environment: daemon.environment,
            timeoutMilliseconds: 20_000)
        #expect(!result.timedOut, "\(name) \(member) timed out")
        return result
    }
}

/// `dbus-send --print-reply`, as the README calls the daemon.
struct DBusSend: CommandLineTool {
    var name: String { "dbus-send" }

    func arguments(_ member: String, _ values: [BusValue], address: String) -> [String] {
        [
            "--session", "--print-reply", "--dest=\(CliptabBus.name)", CliptabBus.path,
            "\(CliptabBus.interface).\(member)",
        ]
            + values.map(argument)
    }

    private func argument(_ value: BusValue) -> String {
        switch value {
        case .array(let element, let items):
            let type = ["s": "string", "i": "int32"][element] ?? "unsupported"
            return "array:\(type):" + items.map(text).joined(separator: ",")
        case .dictionary(_, _, let entries):
            return "dict:string:string:"
                + entries.map { text($0.0) + "," + text($0.1) }.joined(separator: ",")
        case .string: return "string:" + text(value)
        case .int32: return "int32:" + text(value)
        case .uint32: return "uint32:" + text(value)
        case .uint64: return "uint64:" + text(value)
        case .boolean: return "boolean:" + text(value)
        default: return "unsupported:\(value)"
        }
    }

    private func text(_ value: BusValue) -> String {
        switch value {
        case .string(let text): return text
        case .int32(let number): return "\(number)"
        case .uint32(let number): return "\(number)"
        case .uint64(let number): return "\(number)"
        case .boolean(let flag): return "\(flag)"
        default: return "unsupported"
        }
    }

    /// Without the first line, the reply's header (time, sender, serials).
    func printedValues(_ output: String) -> String {
        String(output.drop { $0 != "\n" }.dropFirst())
    }

    func renderReply(_ values: [BusValue]) -> String {
        values.map { render($0, indent: 3) }.joined()
    }

    private func render(_ value: BusValue, indent: Int) -> String {
        let pad = String(repeating: " ", count: indent)
        switch value {
        case .string(let text): return "\(pad)string \"\(text)\"\n"
        case .int32(let number): return "\(pad)int32 \(number)\n"
        case .uint32(let number): return "\(pad)uint32 \(number)\n"
        case .uint64(let number): return "\(pad)uint64 \(number)\n"
        case .boolean(let flag): return "\(pad)boolean \(flag)\n"
        case .array(_, let items):
            return "\(pad)array [\n" + items.map { render($0, indent: indent + 3) }.joined() + "\(pad)]\n"
        case .structure(let fields):
            return "\(pad)struct {\n" + fields.map { render($0, indent: indent + 3) }.joined() + "\(pad)}\n"
        default: return "\(pad)unsupported \(value)\n"
        }
    }

    func renderError(name: String, message: String) -> String { "Error \(name): \(message)\n" }
}

/// `busctl --address=… call`: values after their signature, C-escaped strings.
struct Busctl: CommandLineTool {
    var name: String { "busctl" }

    func arguments(_ member: String, _ values: [BusValue], address: String) -> [String] {
        var result = [
            "--address=\(address)", "--", "call", CliptabBus.name, CliptabBus.path, CliptabBus.interface,
            member,
        ]
        let signature = values.map(\.signature).joined()
        if !signature.isEmpty { result.append(signature) }
        for value in values { result += argument(value) }
        return result
    }

    private func argument(_ value: BusValue) -> [String] {
        switch value {
        case .array(_, let items): return ["\(items.count)"] + items.flatMap(argument)
        case .dictionary(_, _, let entries):
            return ["\(entries.count)"] + entries.flatMap { argument($0.0) + argument($0.1) }
        case .string(let text): return [text]
        case .int32(let number): return ["\(number)"]
        case .uint32(let number): return ["\(number)"]
        case .uint64(let number): return ["\(number)"]
        case .boolean(let flag): return ["\(flag)"]
        default: return ["unsupported"]
        }
    }

    func printedValues(_ output: String) -> String { output }

    func renderReply(_ values: [BusValue]) -> String {
        if values.isEmpty { return "" }
        return values.map(\.signature).joined() + " " + values.map(render).joined(separator: " ") + "\n"
    }

    private func render(_ value: BusValue) -> String {
        switch value {
        case .string(let text): return "\"" + escape(text) + "\""
        case .int32(let number): return "\(number)"
        case .uint32(let number): return "\(number)"
        case .uint64(let number): return "\(number)"
        case .boolean(let flag): return "\(flag)"
        case .array(_, let items): return (["\(items.count)"] + items.map(render)).joined(separator: " ")
        case .structure(let fields): return fields.map(render).joined(separator: " ")
        default: return "unsupported"
        }
    }

    /// systemd's `cescape`: C escapes, and octal for other control and non-ASCII bytes.
    private func escape(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case 0x07: result += "\\a"
            case 0x08: result += "\\b"
            case 0x0C: result += "\\f"
            case 0x0A: result += "\\n"
            case 0x0D: result += "\\r"
            case 0x09: result += "\\t"
            case 0x0B: result += "\\v"
            case 0x5C: result += "\\\\"
            case 0x22: result += "\\\""
            case 0x27: result += "\\'"
            case 0x20..<0x7F: result += String(UnicodeScalar(byte))
            default:
                let octal = String(byte, radix: 8)
                result += "\\" + String(repeating: "0", count: 3 - octal.count) + octal
            }
        }
        return result
    }

    func renderError(name: String, message: String) -> String { "Call failed: \(message)\n" }
}
