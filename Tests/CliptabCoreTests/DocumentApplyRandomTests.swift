// SPDX-License-Identifier: MIT
import CliptabCore
import ModelTestSupport
import TestSupport
import Testing

/// Random documents applied to random tables: the table then equals the document, a
/// replica follows the events, and applying the same document again changes nothing.
@Suite struct DocumentApplyRandomTests {
    private static let texts = ["a", "b", "c", "d", "", " ", "a\n", "multi\nline", "é", "x y"]
    private static let headers = ["", "", "H1", "H2", "H3"]

    private static func randomDocument(_ random: inout SeededRandom) -> TableDocument {
        var document = TableDocument()
        var nameNumber = 0
        for _ in 0..<random.below(5) {
            var section = DocumentSection(header: headers[random.below(headers.count)])
            if random.below(4) == 0 { section.footer = "f\(random.below(3))" }
            for _ in 0..<random.below(8) {
                var row = DocumentRow(text: texts[random.below(texts.count)])
                if random.below(4) == 0 {
                    row.name = "n\(nameNumber)"
                    nameNumber += random.below(3) + 1
                }
                section.rows.append(row)
            }
            document.sections.append(section)
        }
        return document
    }

    /// A person's edits of `document`: moves, changes, deletions, additions, renames.
    private static func edit(_ document: TableDocument, _ random: inout SeededRandom) -> TableDocument {
        var document = document
        for _ in 0..<random.below(6) + 1 {
            let choice = random.below(10)
            if document.sections.isEmpty || choice == 0 {
                document.sections.insert(
                    DocumentSection(
                        header: headers[random.below(headers.count)], rows: [DocumentRow(text: "new")]),
                    at: random.below(document.sections.count + 1))
                continue
            }
            let s = random.below(document.sections.count)
            switch choice {
            case 1: document.sections.remove(at: s)
            case 2:
                let section = document.sections.remove(at: s)
                document.sections.insert(section, at: random.below(document.sections.count + 1))
            case 3: document.sections[s].header = headers[random.below(headers.count)]
            case 4:
                document.sections[s].rows.insert(
                    DocumentRow(text: texts[random.below(texts.count)]),
                    at: random.below(document.sections[s].rows.count + 1))
            default:
                guard !document.sections[s].rows.isEmpty else { continue }
                let r = random.below(document.sections[s].rows.count)
                switch choice {
                case 5: document.sections[s].rows.remove(at: r)
                case 6: document.sections[s].rows[r].text += "!"
                case 7:
                    let row = document.sections[s].rows.remove(at: r)
                    let t = random.below(document.sections.count)
                    document.sections[t].rows.insert(
                        row, at: random.below(document.sections[t].rows.count + 1))
                case 8:
                    let used = Set(document.sections.flatMap { $0.rows.map(\.name) })
                    let name = "m\(random.below(5))"
                    document.sections[s].rows[r].name = used.contains(name) ? "" : name
                default: document.sections[s].rows[r].name = ""
                }
            }
        }
        return document
    }

    @Test func randomDocumentsOnRandomTables() throws {
        var random = SeededRandom("document apply", fixed: 3838)
        for round in 0..<400 {
            let recorder = ServiceRecorder()
            try recorder.service.apply(
                "t", document: Self.randomDocument(&random), revision: 0, dryRun: false)
            // Some history of ordinary calls, so that keys and ids are not only the apply's own.
            if random.below(2) == 0, try recorder.service.sections(of: "t").count > 0 {
                try recorder.service.insertRow(
                    "t", section: 0, row: 0, text: Self.texts[random.below(Self.texts.count)])
            }
            let target =
                random.below(3) == 0
                ? Self.randomDocument(&random) : Self.edit(try recorder.service.document(of: "t"), &random)
            let counts = try DocumentApplyTests.apply(recorder, target)
            let again = try recorder.service.apply("t", document: target, revision: 0, dryRun: true)
            #expect(again.counts.isEmpty, "round \(round), \(SeededRandom.replay(random.seed)): \(counts)")
        }
    }

    @Test func oneChangeInALargeTableIsOneWrite() throws {
        let recorder = ServiceRecorder()
        var document = TableDocument(sections: [
            DocumentSection(rows: (0..<20_000).map { DocumentRow(text: "row \($0)") })
        ])
        try recorder.service.apply("t", document: document, revision: 0, dryRun: false)
        document.sections[0].rows[12_345].text = "changed"
        _ = recorder.takeEvents()
        let commits = recorder.persistence.committed.count
        let result = try recorder.service.apply("t", document: document, revision: 0, dryRun: false)
        #expect(
            result.counts
                == {
                    var c = ApplyCounts(); c.rowsChanged = 1; return c
                }())
        #expect(recorder.persistence.committed.count == commits + 1)
        // The text, the revision, the counters.
        #expect(recorder.persistence.committed.last?.count == 3)
        #expect(recorder.takeEvents().count == 1)
    }

    @Test func reversingASectionMovesAllButOne() throws {
        let recorder = ServiceRecorder()
        var document = TableDocument(sections: [
            DocumentSection(rows: (0..<2_000).map { DocumentRow(text: "row \($0)") })
        ])
        try recorder.service.apply("t", document: document, revision: 0, dryRun: false)
        document.sections[0].rows.reverse()
        let counts = try DocumentApplyTests.apply(recorder, document)
        #expect(counts.rowsMoved == 1_999 && counts.rowsChanged == 0)
    }
}
