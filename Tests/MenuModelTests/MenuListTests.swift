// SPDX-License-Identifier: MIT
import MenuModel
import Testing

/// Rows kept in memory, counting the fetches the menu makes.
final class ArraySource: RowSource {
    /// Each section's texts.
    var sections: [[String]]
    /// Every fetch: section, offset, limit.
    private(set) var calls: [(Int, Int, Int)] = []

    /// Every fetch of previews: section, offset, limit, characters.
    private(set) var previewCalls: [(Int, Int, Int, Int)] = []
    /// The characters of text handed out, previews and whole rows alike.
    private(set) var characters = 0

    init(_ sections: [[String]]) { self.sections = sections }

    func previews(section: Int, offset: Int, limit: Int, characters count: Int) throws -> [FetchedRow] {
        previewCalls.append((section, offset, limit, count))
        let texts = sections[section]
        let end = limit == 0 ? texts.count : min(texts.count, offset + limit)
        return (offset..<max(offset, end)).map {
            let text = String(texts[$0].unicodeScalars.prefix(count))
            characters += text.unicodeScalars.count
            return FetchedRow(id: UInt64(section * 1_000_000 + $0 + 1), text: text)
        }
    }

    func rows(section: Int, offset: Int, limit: Int) throws -> [FetchedRow] {
        calls.append((section, offset, limit))
        let texts = sections[section]
        let end = limit == 0 ? texts.count : min(texts.count, offset + limit)
        return (offset..<max(offset, end)).map {
            characters += texts[$0].unicodeScalars.count
            return FetchedRow(id: UInt64(section * 1_000_000 + $0 + 1), text: texts[$0])
        }
    }

    /// The outlines of the sections, with `headers` and `footers`.
    func outlines(headers: [String], footers: [String]) -> [SectionOutline] {
        sections.indices.map {
            SectionOutline(header: headers[$0], footer: footers[$0], rowCount: sections[$0].count)
        }
    }
}

@Suite struct MenuListTests {
    /// Two sections: one without titles, one with a header and a footer.
    func sample(visibleRows: Int = 10) -> (ArraySource, MenuList) {
        let source = ArraySource([["alpha", "Beta two"], ["ls -la", "git status", "multi\nline"]])
        let content = TableContent(
            source: source,
            outlines: source.outlines(headers: ["", "Shell"], footers: ["", "run with care"]))
        return (source, MenuList(content: content, visibleRows: visibleRows))
    }

    func texts(_ list: MenuList) -> [String] { (0..<list.count).map { list.line(at: $0).text } }

    @Test func laysOutTitlesAndRowsWithTheMultiLineMark() {
        let (_, list) = sample()
        #expect(
            texts(list) == ["alpha", "Beta two", "Shell", "ls -la", "git status", "multi ⏎", "run with care"])
        #expect(
            (0..<list.count).map { list.kind(at: $0) } == [
                .choice, .choice, .header, .choice, .choice, .choice, .footer,
            ])
        #expect(list.cursor == 0)
        #expect(list.line(at: 4).section == 1 && list.line(at: 4).row == 1)
    }

    @Test func cursorSkipsTitlesBothWays() {
        let (_, list) = sample()
        list.move(by: 1)
        list.move(by: 1)
        #expect(list.selected?.text == "ls -la")
        list.move(by: -1)
        #expect(list.selected?.text == "Beta two")
        list.end()
        #expect(list.selected?.text == "multi ⏎")
        list.move(by: 5)
        #expect(list.selected?.text == "multi ⏎")
        list.home()
        #expect(list.selected?.text == "alpha" && list.top == 0)
    }

    @Test func filterIgnoresCaseAndHidesSectionsWithNoMatch() {
        let (_, list) = sample()
        list.setFilter("GIT")
        #expect(texts(list) == ["Shell", "git status", "run with care"])
        #expect(list.selected?.text == "git status")
        list.setFilter("beta")
        #expect(texts(list) == ["Beta two"])
        list.setFilter("LINE")
        // The whole text is searched, not only the first line shown.
        #expect(texts(list) == ["Shell", "multi ⏎", "run with care"])
        list.setFilter("nothing like it")
        #expect(list.count == 0 && list.cursor == nil)
        list.setFilter("")
        #expect(list.count == 7 && list.cursor == 0)
    }

    @Test func unicodeFilterFoldsCase() {
        let source = ArraySource([["Ärger", "ok"]])
        let list = MenuList(
            content: TableContent(source: source, outlines: source.outlines(headers: [""], footers: [""])),
            visibleRows: 5)
        list.setFilter("äR")
        #expect(texts(list) == ["Ärger"])
    }

    @Test func namesAreShownAndMatched() {
        let source = ArraySource([["secret text", "other"]])
        let list = MenuList(
            content: TableContent(
                source: source, outlines: source.outlines(headers: [""], footers: [""]), names: [1: "sig"]),
            visibleRows: 5)
        #expect(list.line(at: 0).name == "sig" && list.line(at: 1).name == nil)
        list.setFilter("SIG")
        #expect(texts(list) == ["secret text"])
    }

    @Test func scrollingKeepsTheCursorInTheWindowAndShowsTheHeaderAbove() {
        let (_, list) = sample(visibleRows: 3)
        #expect(list.window == 0..<3)
        list.move(by: 3)
        #expect(list.selected?.text == "git status")
        #expect(list.window.contains(list.cursor!))
        list.end()
        #expect(list.window == 4..<7)
        list.home()
        list.move(by: 2)
        // Moving up onto "ls -la" from below shows its header with it.
        list.end()
        list.move(by: -2)
        #expect(list.selected?.text == "ls -la")
        #expect(list.top == 2)
    }

    @Test func pagesMoveByAWindow() {
        let source = ArraySource([(0..<100).map { "row \($0)" }])
        let list = MenuList(
            content: TableContent(source: source, outlines: source.outlines(headers: ["H"], footers: [""])),
            visibleRows: 10)
        #expect(list.selected?.text == "row 0")
        list.pageDown()
        #expect(list.selected?.text == "row 10")
        #expect(list.window.contains(list.cursor!))
        list.pageDown()
        list.pageUp()
        #expect(list.selected?.text == "row 10")
        list.pageUp()
        list.pageUp()
        #expect(list.selected?.text == "row 0")
        #expect(list.top == 0)
    }

    @Test func aLargeTableFetchesOnlyThePagesShown() {
        let source = ArraySource([(0..<100_000).map { "row \($0)" }])
        let list = MenuList(
            content: TableContent(
                source: source, outlines: source.outlines(headers: ["H"], footers: [""]), pageSize: 60),
            visibleRows: 20)
        for index in list.window { _ = list.line(at: index) }
        #expect(source.calls.count == 1)
        #expect(source.calls[0] == (0, 0, 60))
        list.end()
        for index in list.window { _ = list.line(at: index) }
        #expect(list.selected?.text == "row 99999")
        #expect(source.calls.count <= 3)
        // A filter needs every row: one call for the section.
        list.setFilter("row 5000")
        #expect(source.calls.last.map { $0 == (0, 0, 0) } == true, "\(source.calls)")
        #expect(list.count == 12)
    }

    @Test func hoverPicksOnlyChoices() {
        let (_, list) = sample()
        #expect(list.point(atWindowRow: 2) == false)
        #expect(list.point(atWindowRow: 3))
        #expect(list.selected?.text == "ls -la")
        #expect(list.point(atWindowRow: 40) == false)
    }

    @Test func rowsGoneSinceTheCountsShowAsGoneAndAreNotFetchedAgain() {
        let source = ArraySource([["a", "b", "c"]])
        let content = TableContent(source: source, outlines: source.outlines(headers: [""], footers: [""]))
        source.sections[0] = ["a"]
        #expect(content.line(at: 2).text == "(gone)")
        _ = content.line(at: 2)
        #expect(source.calls.count == 1)
    }

    @Test func oneLineMarksOnlyRealExtraLines() {
        #expect(MenuLine.oneLine("a\tb") == "a b")
        #expect(MenuLine.oneLine("a\n") == "a")
        #expect(MenuLine.oneLine("a\r\nb") == "a ⏎")
    }

    /// With previews, the first frame of rows of a megabyte fetches a few kilobytes of
    /// them; the filter fetches them whole and matches past the preview.
    @Test func previewsForTheWindowWholeRowsForTheFilter() {
        let long = (0..<20).map { "\($0) " + String(repeating: "x", count: 1_000_000) + " tail\($0)" }
        let source = ArraySource([long])
        let content = TableContent(
            source: source, outlines: source.outlines(headers: [""], footers: [""]), pageSize: 50,
            previewCharacters: 4096)
        let list = MenuList(content: content, visibleRows: 15)
        for index in list.window { _ = list.line(at: index) }
        #expect(source.calls.isEmpty && source.previewCalls.count == 1)
        #expect(source.characters <= 20 * 4096, "the first frame fetched \(source.characters) characters")
        #expect(list.line(at: 3).text.hasPrefix("3 xxx") && list.line(at: 3).text.hasSuffix("…"))
        list.setFilter("TAIL7")
        #expect(source.calls.count == 1 && list.count == 1 && list.selected?.id == 8)
    }

    /// A line of megabytes is cut to what a screen can show before anything measures it.
    @Test func oneLineCutsLongLines() {
        let long = String(repeating: "x", count: 10_000_000)
        let shown = MenuLine.oneLine(long)
        #expect(shown.unicodeScalars.count == MenuLine.shownLimit + 1 && shown.hasSuffix("…"))
        #expect(
            MenuLine.oneLine(String(repeating: "x", count: MenuLine.shownLimit)).count == MenuLine.shownLimit)
        // Blanks after the first line: looked at only so far, then marked.
        #expect(MenuLine.oneLine("a\n" + String(repeating: " ", count: 1_000_000)) == "a ⏎")
        #expect(MenuLine.oneLine("a\n   \n") == "a")
    }
}
