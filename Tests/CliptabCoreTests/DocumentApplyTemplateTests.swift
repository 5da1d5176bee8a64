// SPDX-License-Identifier: MIT
import CliptabCore
import Testing

/// Table documents and templates: the table a document makes is checked for cycles of
/// snippets, and a table file imported brings its settings.
@Suite struct DocumentApplyTemplateTests {
    /// A codec that reads every text as one fixed document (the core has no YAML parser).
    struct FixedCodec: TableDocumentCodec {
        let document: TableDocument
        func decode(_ data: String) throws -> TableDocument { document }
        func encode(_ document: TableDocument) throws -> String { "" }
    }

    static func document(templates: Bool? = nil, _ rows: [(String, String)]) -> TableDocument {
        TableDocument(
            templates: templates,
            sections: [DocumentSection(header: "", rows: rows.map { DocumentRow(name: $0.0, text: $0.1) })])
    }

    @Test func rowsThatTogetherMakeACycleAreRefused() throws {
        let recorder = ServiceRecorder()
        try recorder.service.apply(
            "t", document: Self.document(templates: true, [("a", "x"), ("b", "y")]), revision: 0,
            dryRun: false)
        // Each new text alone makes no cycle with the table as it is; together they do.
        recorder.expectRefused(.invalidTemplate, mentioning: ["row 0:0", "cycle", "t/a", "t/b"]) {
            try recorder.service.apply(
                "t", document: Self.document([("a", "{snippet:b}"), ("b", "{snippet:a}")]), revision: 0,
                dryRun: false)
        }
        // A rename alone can close a cycle too: no text changes.
        try recorder.service.apply(
            "t", document: Self.document([("a", "{snippet:b}"), ("c", "{snippet:a}")]), revision: 0,
            dryRun: false)
        recorder.expectRefused(.invalidTemplate, mentioning: ["cycle"]) {
            try recorder.service.apply(
                "t", document: Self.document([("a", "{snippet:b}"), ("b", "{snippet:a}")]), revision: 0,
                dryRun: false)
        }
    }

    @Test func aNewTemplatesTableWithACycleIsNotCreated() throws {
        let recorder = ServiceRecorder()
        recorder.expectRefused(.invalidTemplate, mentioning: ["cycle"]) {
            try recorder.service.apply(
                "t", document: Self.document(templates: true, [("a", "{snippet:b}"), ("b", "{snippet:a}")]),
                revision: 0, dryRun: false)
        }
        #expect(recorder.service.catalog.tables["t"] == nil)
        // Without templates the same rows are plain texts.
        try recorder.service.apply(
            "t", document: Self.document([("a", "{snippet:b}"), ("b", "{snippet:a}")]), revision: 0,
            dryRun: false)
    }

    @Test func anImportedTableFileBringsItsSettings() throws {
        let document = TableDocument(
            templates: true, actions: ActionSet([.copy, .insert]),
            sections: [DocumentSection(header: "", rows: [DocumentRow(name: "a", text: "{snippet:b}")])])
        let recorder = ServiceRecorder(documentCodec: FixedCodec(document: document))
        try recorder.service.apply("t", document: Self.document([("b", "plain")]), revision: 0, dryRun: false)
        _ = recorder.takeEvents()
        #expect(try recorder.service.importTable("t", format: "yaml", data: "-", replace: false) == 1)
        let record = try recorder.service.record(of: "t")
        #expect(record.isTemplates && record.allowedActions == ActionSet([.copy, .insert]))
        #expect(try recorder.texts("t") == [["plain"], ["{snippet:b}"]])
        // Keys left out leave the settings as they are.
        let bare = ServiceRecorder(documentCodec: FixedCodec(document: Self.document([("", "x")])))
        try bare.service.apply(
            "u",
            document: TableDocument(templates: true, actions: ActionSet([.copy, .insert]), sections: []),
            revision: 0, dryRun: false)
        try bare.service.importTable("u", format: "yaml", data: "-", replace: false)
        let kept = try bare.service.record(of: "u")
        #expect(kept.isTemplates && kept.allowedActions == ActionSet([.copy, .insert]))
    }

    @Test func anImportThatTurnsTemplatesOnIsCheckedAsTheTableItMakes() throws {
        let document = TableDocument(
            templates: true,
            sections: [DocumentSection(header: "", rows: [DocumentRow(name: "a", text: "{snippet:b}")])])
        let recorder = ServiceRecorder(documentCodec: FixedCodec(document: document))
        try recorder.service.apply(
            "t", document: Self.document([("b", "{snippet:a}")]), revision: 0, dryRun: false)
        recorder.expectRefused(.invalidTemplate, mentioning: ["cycle"]) {
            _ = try recorder.service.importTable("t", format: "yaml", data: "-", replace: false)
        }
        #expect(try !recorder.service.record(of: "t").isTemplates)
        // Replacing the row that closed the cycle, it imports.
        try recorder.service.importTable("t", format: "yaml", data: "-", replace: true)
        #expect(try recorder.service.record(of: "t").isTemplates)
    }
}
