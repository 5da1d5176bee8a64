// SPDX-License-Identifier: MIT
import CliptabCore
import Testing

/// A templates table through the service: rows are checked when they are stored, turning
/// templates on checks every row, snippets that would make a cycle are refused, and a table
/// without templates never changes a brace.
@Suite("Templates: tables that hold them")
struct TemplateTableTests {
    static func code(_ body: () throws -> Void) -> CliptabError.Code? {
        do {
            try body()
            return nil
        } catch {
            return (error as? CliptabError)?.code
        }
    }

    static func context() -> TemplateContext { TemplateContext(now: 0, clipboard: "C") }

    /// A malformed row refuses templates being turned on, naming it; a well-formed table
    /// takes them, and then a malformed insert, edit or import is refused, changing nothing.
    @Test("Rows are checked when stored and when templates are turned on")
    func checkedWhenStored() throws {
        let recorder = ServiceRecorder()
        let service = recorder.service
        try service.createTable("t")
        try service.insertRows("t", section: 0, row: 0, texts: ["ok {date}", "code { x }"])
        let refused = #expect(throws: CliptabError.self) { try service.setTemplates("t", true) }
        #expect(refused?.code == .invalidTemplate)
        #expect(refused?.message.contains("row 0:1") == true)
        #expect(refused?.message.contains("at byte 6") == true)
        #expect(try !service.record(of: "t").isTemplates)
        try service.setCell("t", section: 0, row: 1, text: "code {{ x }}")
        try service.setTemplates("t", true)
        #expect(try service.record(of: "t").isTemplates)
        let revision = try service.revision(of: "t")
        #expect(
            Self.code { try service.insertRow("t", section: 0, row: -1, text: "bad }") } == .invalidTemplate)
        #expect(
            Self.code { try service.insertRows("t", section: 0, row: -1, texts: ["a", "{x"]) }
                == .invalidTemplate)
        #expect(
            Self.code { try service.setCell("t", section: 0, row: 0, text: "{date:%Q}") } == .invalidTemplate)
        #expect(
            Self.code { _ = try service.importTable("t", format: "lines", data: "{nope}\n", replace: false) }
                == .invalidTemplate)
        #expect(try service.revision(of: "t") == revision)
        #expect(try recorder.texts("t") == [["ok {date}", "code {{ x }}"]])
        #expect(Self.code { try service.setTemplates("ghost", true) } == .noSuchTable)
    }

    /// A table without templates copies braces as they are; with templates, they expand.
    @Test("Expansion only where templates are on")
    func onlyWhereOn() throws {
        let recorder = ServiceRecorder()
        let service = recorder.service
        try service.createTable("t")
        try service.insertRow("t", section: 0, row: 0, text: "{clipboard} {{")
        let plain = try service.cellForUse(of: "t", section: 0, row: 0)
        #expect(try service.expand(plain, context: Self.context()).text == "{clipboard} {{")
        try service.setTemplates("t", true)
        let templated = try service.cellForUse(of: "t", section: 0, row: 0)
        #expect(try service.expand(templated, context: Self.context()).text == "C {")
    }

    /// An edit or a name that would close a cycle of snippets is refused; turning templates
    /// on for a table whose named rows make one is refused too.
    @Test("Cycles are refused when stored")
    func cycles() throws {
        let recorder = ServiceRecorder()
        let service = recorder.service
        try service.createTable("t")
        try service.insertRows("t", section: 0, row: 0, texts: ["A {snippet:b}", "B"])
        try service.setRowName("t", section: 0, row: 0, rowName: "a")
        try service.setRowName("t", section: 0, row: 1, rowName: "b")
        try service.setTemplates("t", true)
        #expect(
            Self.code { try service.setCell("t", section: 0, row: 1, text: "B {snippet:a}") }
                == .invalidTemplate)
        #expect(
            Self.code { try service.setCell("t", section: 0, row: 0, text: "{snippet:a}") }
                == .invalidTemplate)
        // Naming a third row "c" that a row references is fine; naming a row so that it names itself is not.
        try service.insertRow("t", section: 0, row: -1, text: "{snippet:c}")
        #expect(
            Self.code { try service.setRowName("t", section: 0, row: 2, rowName: "c") } == .invalidTemplate)
        try service.setRowName("t", section: 0, row: 2, rowName: "d")
        let used = try service.cellForUse(of: "t", section: 0, row: 0)
        #expect(try service.expand(used, context: Self.context()).text == "A B")
        // A table whose rows make a cycle cannot take templates.
        try service.createTable("u")
        try service.insertRows("u", section: 0, row: 0, texts: ["{snippet:y}", "{snippet:x}"])
        try service.setRowName("u", section: 0, row: 0, rowName: "x")
        try service.setRowName("u", section: 0, row: 1, rowName: "y")
        let refused = #expect(throws: CliptabError.self) { try service.setTemplates("u", true) }
        #expect(refused?.code == .invalidTemplate)
        #expect(refused?.message.contains("u/x → u/y → u/x") == true)
    }

    /// A chain of named rows deeper than an expansion nests is no cycle: templates go on,
    /// and the expansion of its head is refused by the depth bound; a snippet reached two
    /// ways is no cycle either.
    @Test("Chains and shared snippets are no cycles")
    func chainsAndSharedSnippets() throws {
        let recorder = ServiceRecorder()
        let service = recorder.service
        try service.createTable("t")
        let count = 400
        try service.insertRows(
            "t", section: 0, row: 0,
            texts: (0..<count).map { $0 + 1 < count ? "{snippet:r\($0 + 1)}{snippet:r\($0 + 1)}" : "end" })
        for index in 0..<count {
            try service.setRowName("t", section: 0, row: Int32(index), rowName: "r\(index)")
        }
        try service.setTemplates("t", true)
        let head = try service.cellForUse(of: "t", section: 0, row: 0)
        let deep = #expect(throws: CliptabError.self) { try service.expand(head, context: Self.context()) }
        #expect(deep?.code == .limitExceeded)
        let near = try service.cellForUse(of: "t", section: 0, row: Int32(count - 4))
        #expect(try service.expand(near, context: Self.context()).text == String(repeating: "end", count: 8))
    }

    /// The expansion says secret when it includes a secret table's row (at any depth) or a
    /// clipboard text marked secret, and when its own table is secret; otherwise it is not.
    @Test("Secret in, secret out")
    func secretInSecretOut() throws {
        let recorder = ServiceRecorder()
        let service = recorder.service
        try service.createTable("vault")
        try service.insertRow("vault", section: 0, row: 0, text: "hunter2")
        try service.setRowName("vault", section: 0, row: 0, rowName: "bank")
        try service.setSecret("vault", true)
        try service.createTable("t")
        try service.insertRows(
            "t", section: 0, row: 0,
            texts: ["{snippet:vault/bank}", "{snippet:x}", "a {clipboard}", "{date}"])
        try service.setRowName("t", section: 0, row: 1, rowName: "y")
        try service.insertRow("t", section: 0, row: -1, text: "<{snippet:vault/bank}>")
        try service.setRowName("t", section: 0, row: 4, rowName: "x")
        try service.setTemplates("t", true)
        func expand(_ table: String, _ row: Int32, markedClipboard: Bool = false) throws -> TemplateExpansion
        {
            var context = Self.context()
            context.isClipboardSecret = markedClipboard
            return try service.expand(service.cellForUse(of: table, section: 0, row: row), context: context)
        }
        #expect(try expand("t", 0) == TemplateExpansion(text: "hunter2", isSecret: true))
        #expect(try expand("t", 1) == TemplateExpansion(text: "<hunter2>", isSecret: true))
        #expect(try !expand("t", 2).isSecret)
        #expect(try expand("t", 2, markedClipboard: true) == TemplateExpansion(text: "a C", isSecret: true))
        #expect(
            try !expand("t", 3, markedClipboard: true).isSecret, "a clipboard not filled in made it secret")
        #expect(try expand("vault", 0) == TemplateExpansion(text: "hunter2", isSecret: true))
        try service.setSecret("t", true)
        #expect(try expand("t", 3).isSecret, "a secret table's template was not secret")
    }
}
