// SPDX-License-Identifier: MIT
import MenuModel
import Testing

/// A font of fixed widths: every character 10 pixels, "W" 20, lines 12 high.
struct FakeMetrics: MenuMetrics {
    var textHeight: Int { 12 }

    func advance(_ scalar: Unicode.Scalar) -> Int { scalar == "W" ? 20 : 10 }

    func width(of text: String) -> Int { text.unicodeScalars.reduce(0) { $0 + advance($1) } }

    func prefix(of text: String, fitting width: Int) -> Substring {
        var used = 0
        var end = text.unicodeScalars.startIndex
        for scalar in text.unicodeScalars {
            guard used + advance(scalar) <= width else { break }
            used += advance(scalar)
            end = text.unicodeScalars.index(after: end)
        }
        return text[..<end]
    }
}

/// Given lines, as a level shows them.
final class LinesContent: MenuContent {
    let lines: [MenuLine]
    init(_ lines: [MenuLine]) { self.lines = lines }
    var count: Int { lines.count }
    func kind(at index: Int) -> MenuLineKind { lines[index].kind }
    func section(at index: Int) -> Int { lines[index].section }
    func line(at index: Int) -> MenuLine { lines[index] }
    func matches(_ index: Int, _ needle: String) -> Bool { lines[index].text.lowercased().contains(needle) }
    func loadAll() {}
}

/// The one layout both popups draw: sizes, cutting, the prompt, names, scrolling, titles.
@Suite struct MenuLayoutTests {
    let metrics = FakeMetrics()

    /// 20 digits wide and padding 3 (206 pixels, 200 of text); lines 18 high.
    func layout(width: Int = 20, maximumWidth: Int = .max) -> MenuLayout {
        var settings = MenuSettings()
        settings.width = width
        return MenuLayout(
            settings: settings, textHeight: metrics.textHeight, digitWidth: 10, padding: 3,
            maximumWidth: maximumWidth)
    }

    /// The texts drawn, with where and in what.
    func texts(_ drawings: [MenuDrawing]) -> [(text: String, x: Int, y: Int, ink: MenuInk)] {
        drawings.compactMap {
            if case .text(let text, let x, let y, let ink) = $0 { return (text, x, y, ink) }
            return nil
        }
    }

    @Test func boxIsTheSettingsDigitsWideAndLinesHigh() {
        let layout = layout()
        #expect(layout.width == 206 && layout.lineHeight == 18)
        #expect(self.layout(maximumWidth: 150).width == 150)
        #expect(layout.height(visibleRows: 4) == 90)
        var settings = MenuSettings()
        settings.rows = 10
        // A short first level still gets 3 lines; a low screen fewer than the settings'.
        #expect(layout.visibleRows(settings: settings, firstCount: 1, availableHeight: 1000) == 3)
        #expect(layout.visibleRows(settings: settings, firstCount: 50, availableHeight: 1000) == 10)
        #expect(layout.visibleRows(settings: settings, firstCount: 50, availableHeight: 18 * 5) == 4)
        #expect(
            layout.windowRow(atY: 5) == -1 && layout.windowRow(atY: 18) == 0 && layout.windowRow(atY: 40) == 1
        )
    }

    @Test func cutKeepsWhatFitsAndEndsInAnEllipsis() {
        #expect(metrics.cut("abc", to: 30) == "abc")
        #expect(metrics.cut("abcd", to: 30) == "ab…")
        #expect(metrics.cut("abcd", to: 0) == "")
        #expect(metrics.cut("WWW", to: 50) == "WW…")
        let cut = metrics.cut(String(repeating: "x", count: 10_000), to: 95)
        #expect(cut == String(repeating: "x", count: 8) + "…")
    }

    /// A long prompt takes at most half the line, then " › ", then the filter and its caret.
    @Test func promptTakesAtMostHalfTheLine() throws {
        let list = MenuList(content: ChoiceContent(["alpha"]), visibleRows: 3)
        list.setFilter("al")
        let layout = layout()
        let drawn = layout.drawings(
            .list(.tables, list), prompt: String(repeating: "p", count: 40), message: nil, height: 72,
            metrics: metrics)
        let shown = texts(drawn)
        // 200 / 2 = 100 pixels: 9 characters and the ellipsis.
        #expect(shown[0].text == String(repeating: "p", count: 9) + "… › " && shown[0].ink == .title)
        #expect(shown[0].x == 3 && shown[0].y == 3)
        let start = 3 + metrics.width(of: shown[0].text)
        #expect(shown[1].text == "al" && shown[1].x == start && shown[1].ink == .foreground)
        #expect(drawn.contains(.fill(x: start + 20, y: 3, width: 2, height: 12, ink: .foreground)))
        // A short prompt is whole.
        let short = texts(
            layout.drawings(.list(.tables, list), prompt: "t", message: nil, height: 72, metrics: metrics))
        #expect(short[0].text == "t › ")
    }

    /// A row's name takes at most a third of the room at the right end; the text the rest.
    @Test func namesTakeAThirdAtTheRightAndTextTheRest() {
        let line = MenuLine(
            kind: .choice, text: String(repeating: "t", count: 100), name: String(repeating: "n", count: 100))
        let list = MenuList(content: LinesContent([line]), visibleRows: 3)
        let layout = layout()
        let shown = texts(
            layout.drawings(
                .list(.rows(table: "t"), list), prompt: "t", message: nil, height: 72, metrics: metrics))
        // indent 3 + 20 ("  "); room 206 - 23 - 3 = 180; name in 60: 5 characters and "…".
        let name = shown[2]
        #expect(name.text == "nnnnn…" && name.x == 206 - 3 - 60 && name.y == 18 + 3)
        #expect(name.ink == .selectedForeground)
        // The text in 180 - 60 - 20 = 100: 9 characters and "…".
        let text = shown[3]
        #expect(text.text == String(repeating: "t", count: 9) + "…" && text.x == 23)
        #expect(text.ink == .selectedForeground)
    }

    /// The window shows the lines from `top`; the chosen one is on its background.
    @Test func scrolledWindowDrawsItsLinesAndTheCursor() {
        let list = MenuList(content: ChoiceContent((0..<10).map { "row \($0)" }), visibleRows: 3)
        list.move(by: 5)
        let layout = layout()
        let drawn = layout.drawings(
            .list(.tables, list), prompt: "t", message: nil, height: 72, metrics: metrics)
        let rows = texts(drawn).dropFirst(2)
        #expect(rows.map(\.text) == ["row 3", "row 4", "row 5"])
        #expect(rows.map(\.y) == [21, 39, 57])
        #expect(rows.map(\.ink) == [.foreground, .foreground, .selectedForeground])
        #expect(drawn.contains(.fill(x: 0, y: 54, width: 206, height: 18, ink: .selectedBackground)))
        #expect(drawn.first == .fill(x: 0, y: 0, width: 206, height: 72, ink: .background))
    }

    /// Headers are underlined, footers indented; both in the title's colour.
    @Test func titlesAndFooters() {
        let lines = [
            MenuLine(kind: .header, text: "Shell"), MenuLine(kind: .choice, text: "ls"),
            MenuLine(kind: .footer, text: "run with care"),
        ]
        let list = MenuList(content: LinesContent(lines), visibleRows: 3)
        let drawn = layout().drawings(
            .list(.tables, list), prompt: "t", message: nil, height: 72, metrics: metrics)
        let shown = texts(drawn)
        #expect(shown[2].text == "Shell" && shown[2].x == 3 && shown[2].ink == .title)
        #expect(drawn.contains(.fill(x: 3, y: 35, width: 200, height: 1, ink: .title)))
        #expect(shown[4].text == "run with care" && shown[4].x == 23 && shown[4].ink == .title)
    }

    /// A message takes the prompt's place on the chosen row's colours; nothing matching says so.
    @Test func messageAndNothingMatches() {
        let list = MenuList(content: ChoiceContent(["alpha"]), visibleRows: 3)
        list.setFilter("zzz")
        let drawn = layout().drawings(
            .list(.tables, list), prompt: "t", message: "the daemon is gone", height: 72, metrics: metrics)
        let shown = texts(drawn)
        #expect(shown.map(\.text) == ["the daemon is gone", "(nothing matches)"])
        #expect(shown[0].ink == .selectedForeground && shown[1].y == 21)
        #expect(drawn.contains(.fill(x: 0, y: 0, width: 206, height: 18, ink: .selectedBackground)))
    }

    /// An editor's caret stands after the text before it, and at the field's end past a cut.
    @Test func editorCaret() {
        var editor = LineEditor("abcdef")
        editor.left()
        let layout = layout()
        let drawn = layout.drawings(
            .input(.tables, editor), prompt: "p", message: nil, height: 72, metrics: metrics)
        let shown = texts(drawn)
        #expect(shown.map(\.text) == ["p: ", "abcdef"])
        let start = 3 + metrics.width(of: "p: ")
        #expect(drawn.contains(.fill(x: start + 50, y: 3, width: 2, height: 12, ink: .foreground)))
        let long = LineEditor(String(repeating: "x", count: 1000))
        let far = layout.drawings(
            .input(.tables, long), prompt: "p", message: nil, height: 72, metrics: metrics)
        #expect(far.contains(.fill(x: 206 - 3, y: 3, width: 2, height: 12, ink: .foreground)))
    }
}
