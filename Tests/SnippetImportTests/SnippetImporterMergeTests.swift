// SPDX-License-Identifier: MIT
import CliptabCore
import SnippetImport
import Testing

/// `SnippetImporter.merged`: imported rows applied over a table's present content, its cost
/// counted in steps.
@Suite struct SnippetImporterMergeTests {
    /// `count` unnamed literal rows `prefix0`, `prefix1`, ….
    private static func rows(_ prefix: String, _ count: Int) -> [ImportedRow] {
        (0..<count).map { ImportedRow(name: "", text: "\(prefix)\($0)", isTemplate: false) }
    }

    @Test func unnamedRowsMergeInStepsLinearInTheirNumber() {
        // The table holds 10,000 unnamed rows; the import 20,000, half of them those.
        let table = TableDocument(sections: [
            DocumentSection(header: "s", rows: (0..<10_000).map { DocumentRow(text: "old\($0)") })
        ])
        var snippets = ImportedSnippets()
        snippets.sections = [
            ImportedSection(header: "s", rows: Self.rows("old", 10_000) + Self.rows("new", 10_000))
        ]
        var steps = 0
        let merged = SnippetImporter.merged(snippets, over: table, replace: false, steps: &steps)
        #expect(merged.sections.count == 1)
        #expect(merged.sections[0].rows.count == 20_000)
        #expect(merged.sections[0].rows.last?.text == "new9999")
        // A scan of the section per imported row took about 10^8 comparisons.
        #expect(steps <= 4 * (10_000 + 20_000), "\(steps) steps")
    }

    @Test func eachUnnamedTableRowMatchesOneImportedRow() {
        let table = TableDocument(sections: [DocumentSection(header: "s", rows: [DocumentRow(text: "a")])])
        var snippets = ImportedSnippets()
        snippets.sections = [
            ImportedSection(
                header: "s",
                rows: ["a", "a", "b", "b"].map { ImportedRow(name: "", text: $0, isTemplate: false) })
        ]
        let merged = SnippetImporter.merged(snippets, over: table, replace: false)
        #expect(merged.sections.map { $0.rows.map(\.text) } == [["a", "a", "b", "b"]])
        // Importing the same again changes nothing.
        #expect(SnippetImporter.merged(snippets, over: merged, replace: false) == merged)
    }

    @Test func manySectionsFindTheirHeadersInLinearSteps() {
        let table = TableDocument(sections: (0..<5_000).map { DocumentSection(header: "h\($0)") })
        var snippets = ImportedSnippets()
        snippets.sections = (0..<10_000).map {
            ImportedSection(header: "h\($0)", rows: [ImportedRow(name: "", text: "t", isTemplate: false)])
        }
        var steps = 0
        let merged = SnippetImporter.merged(snippets, over: table, replace: false, steps: &steps)
        #expect(merged.sections.count == 10_000)
        #expect(merged.sections.allSatisfy { $0.rows.map(\.text) == ["t"] })
        #expect(steps <= 4 * (5_000 + 2 * 10_000), "\(steps) steps")
    }
}
