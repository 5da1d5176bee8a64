// SPDX-License-Identifier: MIT

/// One level's list: its content, the filter typed, the chosen line and the scroll position.
///
/// Indexes are into the lines shown (after the filter). The cursor only rests on choices;
/// titles are skipped. A non-empty filter keeps the choices that contain it (ignoring case)
/// and the titles of the sections that keep at least one choice.
public final class MenuList {
    /// The lines before filtering.
    public let content: MenuContent
    /// How many lines fit in the window.
    public var visibleRows: Int {
        didSet { scrollToCursor() }
    }
    /// The filter typed so far.
    public private(set) var filter = ""
    /// The shown lines as indexes into the content; nil shows every line.
    private var shown: [Int]?
    /// The chosen line (an index into the lines shown), nil when no choice is shown.
    public private(set) var cursor: Int?
    /// The first line shown in the window.
    public private(set) var top = 0

    /// Makes a list over `content` with the cursor on the first choice.
    public init(content: MenuContent, visibleRows: Int) {
        self.content = content
        self.visibleRows = max(1, visibleRows)
        cursor = firstChoice(from: 0, step: 1)
    }

    /// How many lines are shown.
    public var count: Int { shown?.count ?? content.count }

    /// The shown line `index`.
    public func line(at index: Int) -> MenuLine { content.line(at: contentIndex(index)) }

    /// The kind of the shown line `index` (never fetches).
    public func kind(at index: Int) -> MenuLineKind { content.kind(at: contentIndex(index)) }

    /// The chosen line, if any.
    public var selected: MenuLine? { cursor.map { line(at: $0) } }

    /// The lines in the window: `top ..< min(count, top + visibleRows)`.
    public var window: Range<Int> { top..<min(count, top + visibleRows) }

    private func contentIndex(_ index: Int) -> Int { shown?[index] ?? index }

    /// Sets the filter and puts the cursor on the first choice that passes it.
    public func setFilter(_ text: String) {
        filter = text
        if text.isEmpty {
            shown = nil
        } else {
            content.loadAll()
            shown = Self.filtered(content, text.lowercased())
        }
        top = 0
        cursor = firstChoice(from: 0, step: 1)
        scrollToCursor()
    }

    /// The content indexes that pass `needle`: matching choices, and the titles of the
    /// sections that keep one.
    private static func filtered(_ content: MenuContent, _ needle: String) -> [Int] {
        var kept: [Int] = []
        var pendingHeader: Int?
        var sectionKept = false
        var section = -1
        for index in 0..<content.count {
            let kind = content.kind(at: index)
            let lineSection = content.section(at: index)
            if lineSection != section {
                section = lineSection
                pendingHeader = nil
                sectionKept = false
            }
            switch kind {
            case .header:
                pendingHeader = index
            case .choice:
                if content.matches(index, needle) {
                    if !sectionKept, let header = pendingHeader { kept.append(header) }
                    sectionKept = true
                    kept.append(index)
                }
            case .footer:
                if sectionKept { kept.append(index) }
            }
        }
        return kept
    }

    /// The first choice at or after (`step` 1) or before (`step` -1) `start`, if any.
    private func firstChoice(from start: Int, step: Int) -> Int? {
        var index = start
        while index >= 0 && index < count {
            if kind(at: index) == .choice { return index }
            index += step
        }
        return nil
    }

    /// Moves the cursor `by` choices (negative: up), stopping at the ends.
    public func move(by steps: Int) {
        guard var index = cursor else { return }
        let step = steps < 0 ? -1 : 1
        for _ in 0..<abs(steps) {
            guard let next = firstChoice(from: index + step, step: step) else { break }
            index = next
        }
        cursor = index
        scrollToCursor()
    }

    /// Moves the cursor down a window's height of lines, and the window with it.
    public func pageDown() { jump(to: (cursor ?? 0) + visibleRows, scroll: visibleRows) }

    /// Moves the cursor up a window's height of lines, and the window with it.
    public func pageUp() { jump(to: (cursor ?? 0) - visibleRows, scroll: -visibleRows) }

    /// The first choice, with the window at the top.
    public func home() {
        top = 0
        cursor = firstChoice(from: 0, step: 1)
        scrollToCursor()
    }

    /// The last choice, with the window at the bottom.
    public func end() {
        top = max(0, count - visibleRows)
        cursor = firstChoice(from: count - 1, step: -1)
        scrollToCursor()
    }

    /// Puts the cursor on the window's row `row` when that line is a choice (mouse hover);
    /// returns whether it did.
    @discardableResult
    public func point(atWindowRow row: Int) -> Bool {
        let index = top + row
        guard row >= 0, index < count, kind(at: index) == .choice else { return false }
        cursor = index
        return true
    }

    /// The cursor on the choice nearest to `target`, the window moved by `scroll` lines.
    private func jump(to target: Int, scroll: Int) {
        guard cursor != nil else { return }
        let clamped = min(max(0, target), count - 1)
        let forward = scroll > 0
        cursor =
            firstChoice(from: clamped, step: forward ? 1 : -1)
            ?? firstChoice(from: clamped, step: forward ? -1 : 1)
        top = min(max(0, top + scroll), max(0, count - visibleRows))
        scrollToCursor()
    }

    /// Moves the window so the cursor is in it; on the way up it also shows the titles just
    /// above the cursor, so a section's first row comes with its header.
    private func scrollToCursor() {
        top = min(top, max(0, count - visibleRows))
        guard let cursor else { return }
        if cursor < top {
            top = cursor
        } else if cursor >= top + visibleRows {
            top = cursor - visibleRows + 1
        }
        while top > 0 && kind(at: top - 1) == .header && cursor - (top - 1) < visibleRows {
            top -= 1
        }
    }
}
