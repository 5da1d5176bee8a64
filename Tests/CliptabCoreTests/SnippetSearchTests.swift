// SPDX-License-Identifier: MIT
import CliptabCore
import Testing

/// The desktop search: what matches, in which order, what a secret row shows, the cap, and
/// the bound of its work in steps.
@Suite("Snippet search")
struct SnippetSearchTests {
    /// A service over memory with table "notes" (section 0 "Greetings": "Hello World",
    /// "über Straße" named "umlaut"; section 1 "Shell": "ls -la", "grep hello" named "gh")
    /// and secret table "vault" (section 0 "Mail": "hunter2" named "mail-password",
    /// "hello-secret").
    static func service() throws -> TableService {
        let service = TableService(
            catalog: Catalog(), persistence: MemoryPersistence(), announce: { _, _ in })
        try service.createTable("notes")
        try service.setHeader("notes", section: 0, text: "Greetings")
        try service.insertRows("notes", section: 0, row: 0, texts: ["Hello World", "über Straße"])
        try service.setRowName("notes", section: 0, row: 1, rowName: "umlaut")
        _ = try service.insertSection("notes", at: 1, header: "Shell", footer: "")
        try service.insertRows("notes", section: 1, row: 0, texts: ["ls -la", "grep hello"])
        try service.setRowName("notes", section: 1, row: 1, rowName: "gh")
        try service.createTable("vault")
        try service.setHeader("vault", section: 0, text: "Mail")
        try service.insertRows("vault", section: 0, row: 0, texts: ["hunter2", "hello-secret"])
        try service.setRowName("vault", section: 0, row: 0, rowName: "mail-password")
        try service.setSecret("vault", true)
        return service
    }

    /// Searches `words` over `service` with a fresh budget; the hits' titles.
    static func titles(_ service: TableService, _ words: [String], limit: Int = 20) throws -> [String] {
        var budget = MatchBudget(steps: SnippetSearch.defaultSteps)
        return SnippetSearch.search(service.catalog, try SearchTerms(words), limit: limit, budget: &budget)
            .hits.map(\.title)
    }

    /// Every term must be found, ignoring case (also outside ASCII), in the text, the name
    /// or the header; named rows come first.
    @Test func matchingAndOrder() throws {
        let service = try Self.service()
        #expect(try Self.titles(service, ["HELLO"]) == ["gh", "Hello World"])
        #expect(try Self.titles(service, ["hello", "world"]) == ["Hello World"])
        #expect(try Self.titles(service, ["greetings", "world"]) == ["Hello World"])
        #expect(try Self.titles(service, ["ÜBER"]) == ["umlaut"])
        #expect(try Self.titles(service, ["STRASSE"]) == [])
        #expect(try Self.titles(service, ["straße"]) == ["umlaut"])
        #expect(try Self.titles(service, ["shell"]) == ["gh", "ls -la"])
        #expect(try Self.titles(service, ["umlaut", "greet"]) == ["umlaut"])
        #expect(try Self.titles(service, ["hello", "nothing"]) == [])
        #expect(try Self.titles(service, []) == [])
        #expect(try Self.titles(service, ["  "]) == [])
    }

    /// A secret table's rows match by name and header only, and never carry their text.
    @Test func secretRowsByNameOrMasked() throws {
        let service = try Self.service()
        // "hunter2" and "hello-secret" are texts of the secret table: not found by them.
        #expect(try Self.titles(service, ["hunter2"]) == [])
        #expect(try Self.titles(service, ["hello", "secret"]) == [])
        var budget = MatchBudget(steps: SnippetSearch.defaultSteps)
        let hits = SnippetSearch.search(
            service.catalog, try SearchTerms(["mail"]), limit: 20, budget: &budget
        )
        .hits
        #expect(hits.map(\.title) == ["mail-password", SearchHit.mask])
        #expect(hits.allSatisfy { $0.isSecret && $0.text.isEmpty })
        #expect(hits.map(\.subtitle) == ["vault › Mail", "vault › Mail"])
    }

    /// At most `limit` results; named rows are kept first even when found last.
    @Test func theCap() throws {
        let service = TableService(
            catalog: Catalog(), persistence: MemoryPersistence(), announce: { _, _ in })
        try service.createTable("t")
        try service.insertRows("t", section: 0, row: 0, texts: (0..<500).map { "row \($0)" })
        try service.setRowName("t", section: 0, row: 499, rowName: "last")
        #expect(try Self.titles(service, ["row"], limit: 3) == ["last", "row 0", "row 1"])
        #expect(try Self.titles(service, ["row"], limit: 1) == ["last"])
    }

    /// The steps: 8 per table and per row, one per byte of each header and each text read
    /// (no first byte matched); the budget spent ends the search with what it found.
    @Test func boundInSteps() throws {
        let service = TableService(
            catalog: Catalog(), persistence: MemoryPersistence(), announce: { _, _ in })
        try service.createTable("t")
        try service.setHeader("t", section: 0, text: "header")
        try service.insertRows("t", section: 0, row: 0, texts: Array(repeating: "0123456789", count: 1_000))
        var budget = MatchBudget(steps: SnippetSearch.defaultSteps)
        let result = SnippetSearch.search(service.catalog, try SearchTerms(["q"]), limit: 5, budget: &budget)
        #expect(result.hits.isEmpty && result.complete)
        let perRow = SnippetSearch.perRowSteps + 10
        #expect(budget.total - budget.remaining == SnippetSearch.perRowSteps + 6 + 1_000 * perRow)

        // A budget for 100 rows finds what is in them, and says it stopped.
        try service.setCell("t", section: 0, row: 50, text: "0123q56789")
        try service.setCell("t", section: 0, row: 500, text: "0123q56789")
        var small = MatchBudget(steps: SnippetSearch.perRowSteps + 6 + 100 * perRow)
        let partial = SnippetSearch.search(service.catalog, try SearchTerms(["Q"]), limit: 5, budget: &small)
        #expect(!partial.complete)
        #expect(partial.hits.map(\.row) == [50])
    }

    /// A term of repeated bytes over a text of the same bytes costs comparisons, counted.
    @Test func comparisonsAreCharged() throws {
        let service = TableService(
            catalog: Catalog(), persistence: MemoryPersistence(), announce: { _, _ in })
        try service.createTable("t")
        try service.insertRow("t", section: 0, row: 0, text: String(repeating: "a", count: 10_000))
        var budget = MatchBudget(steps: 1_000_000)
        let term = String(repeating: "a", count: 200) + "b"
        let result = SnippetSearch.search(service.catalog, try SearchTerms([term]), limit: 5, budget: &budget)
        #expect(!result.complete)
        #expect(budget.remaining == 0)
    }

    /// Too many terms, or too many bytes, are refused with a message naming the limit.
    @Test func termLimits() throws {
        #expect(throws: CliptabError.self) { try SearchTerms(Array(repeating: "a", count: 33)) }
        #expect(throws: CliptabError.self) { try SearchTerms([String(repeating: "a", count: 1_025)]) }
        #expect(try SearchTerms(query: " a  B ").terms == [Array("a".utf8), Array("b".utf8)])
    }

    /// A result is found again at its place, after a move by its id, and not after a delete.
    @Test func resolvingResults() throws {
        let service = try Self.service()
        var budget = MatchBudget(steps: SnippetSearch.defaultSteps)
        let hit = try #require(
            SnippetSearch.search(service.catalog, try SearchTerms(["world"]), limit: 5, budget: &budget).hits
                .first)
        #expect(SearchResultID(hit.id.description) == hit.id)
        #expect(SnippetSearch.resolve(hit.id, in: service.catalog, budget: &budget) == hit)
        try service.moveRow("notes", from: (0, 0), to: (1, 2))
        let moved = try #require(SnippetSearch.resolve(hit.id, in: service.catalog, budget: &budget))
        #expect(
            moved.section == 1 && moved.row == 2 && moved.header == "Shell" && moved.text == "Hello World")
        try service.deleteRow("notes", section: 1, row: 2)
        #expect(SnippetSearch.resolve(hit.id, in: service.catalog, budget: &budget) == nil)
        for bad in ["", "1:2:3", "a:b:c:d", "1:2:3:4:5", String(repeating: "9", count: 100)] {
            #expect(SearchResultID(bad) == nil, "\(bad)")
        }
    }
}
