// SPDX-License-Identifier: MIT

/// A table's sections and rows as menu lines, fetched page by page as they are shown.
///
/// Each section is laid out as its header line (when it has a header), its rows, an "end of
/// section" choice (only for picking a move's destination) and its footer line. Only the
/// counts are needed to lay out the lines, so a table of 100,000 rows opens after one page.
public final class TableContent: MenuContent {
    /// The text of the "end of section" choice of a move's destination list.
    public static let endOfSectionText = "↧ end of section"

    private let source: RowSource
    private let outlines: [SectionOutline]
    private let names: [UInt64: String]
    private let endItems: Bool
    private let secret: Bool
    private let pageSize: Int
    private let previewCharacters: Int
    /// Whether each section's rows were fetched whole (for the filter), not as previews.
    private var whole: [Bool]
    /// The first line of each section, and the total as the last element.
    private let starts: [Int]
    /// The fetched pages of each section, by page number: nothing is kept (or allocated)
    /// for rows never shown.
    private var pages: [[Int: [Entry]]]
    /// The first error of a fetch; later lines show as placeholders.
    public private(set) var failure: (any Error)?
    /// How many fetches were made (for tests of the paging).
    public private(set) var fetchCount = 0

    /// A fetched row: what it shows, and its text folded for the filter when first filtered
    /// (folding a page of rows of megabytes is not work for the first frame).
    private final class Entry {
        let row: FetchedRow
        let shown: String
        private(set) lazy var folded = row.text.lowercased()

        init(row: FetchedRow, shown: String) {
            self.row = row
            self.shown = shown
        }
    }

    /// Lays out `outlines`; rows come from `source` in pages of `pageSize`, names from `names`
    /// (row id → name); `endItems` adds an "end of section" choice to each section.
    ///
    /// The rows of a `secret` table show `MenuLine.secretMask` in place of their text, and
    /// the filter matches their names only: their text is dropped as it is fetched.
    ///
    /// With `previewCharacters` above 0, pages are fetched as previews of that many
    /// characters (a row of megabytes costs what its line shows), and the whole texts only
    /// when the filter needs them (`loadAll`).
    public init(
        source: RowSource, outlines: [SectionOutline], names: [UInt64: String] = [:], endItems: Bool = false,
        secret: Bool = false, pageSize: Int = 100, previewCharacters: Int = 0
    ) {
        self.previewCharacters = previewCharacters
        whole = outlines.map { _ in false }
        self.source = source
        self.outlines = outlines
        self.names = names
        self.endItems = endItems
        self.secret = secret
        self.pageSize = max(1, pageSize)
        var starts: [Int] = []
        var next = 0
        for outline in outlines {
            starts.append(next)
            next +=
                (outline.header.isEmpty ? 0 : 1) + outline.rowCount + (endItems ? 1 : 0)
                + (outline.footer.isEmpty ? 0 : 1)
        }
        starts.append(next)
        self.starts = starts
        pages = outlines.map { _ in [:] }
    }

    /// How many lines there are.
    public var count: Int { starts[starts.count - 1] }

    /// Where line `index` falls: its section and the offset within the section's lines.
    private func locate(_ index: Int) -> (section: Int, offset: Int) {
        var low = 0
        var high = outlines.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= index { low = middle } else { high = middle - 1 }
        }
        return (low, index - starts[low])
    }

    /// What a line of section `section` at `offset` is, and its row index for rows.
    private func place(_ section: Int, _ offset: Int) -> (kind: MenuLineKind, row: Int, isEnd: Bool) {
        let outline = outlines[section]
        var offset = offset
        if !outline.header.isEmpty {
            if offset == 0 { return (.header, 0, false) }
            offset -= 1
        }
        if offset < outline.rowCount { return (.choice, offset, false) }
        offset -= outline.rowCount
        if endItems {
            if offset == 0 { return (.choice, outline.rowCount, true) }
        }
        return (.footer, 0, false)
    }

    /// What line `index` is.
    public func kind(at index: Int) -> MenuLineKind {
        let (section, offset) = locate(index)
        return place(section, offset).kind
    }

    /// The section of line `index`.
    public func section(at index: Int) -> Int { locate(index).section }

    /// Line `index`, fetching its page if needed.
    public func line(at index: Int) -> MenuLine {
        let (section, offset) = locate(index)
        let (kind, row, isEnd) = place(section, offset)
        let outline = outlines[section]
        switch kind {
        case .header: return MenuLine(kind: .header, text: outline.header, section: section)
        case .footer: return MenuLine(kind: .footer, text: outline.footer, section: section)
        case .choice:
            if isEnd {
                return MenuLine(kind: .choice, text: Self.endOfSectionText, section: section, row: row)
            }
            guard let entry = entry(section, row) else {
                return MenuLine(kind: .choice, text: "…", section: section, row: row)
            }
            return MenuLine(
                kind: .choice, text: entry.shown, name: names[entry.row.id], section: section, row: row,
                id: entry.row.id)
        }
    }

    /// Whether row line `index` contains `needle` in its text or name (end items never do).
    public func matches(_ index: Int, _ needle: String) -> Bool {
        let (section, offset) = locate(index)
        let (kind, row, isEnd) = place(section, offset)
        guard kind == .choice, !isEnd, let entry = entry(section, row) else { return false }
        if entry.folded.contains(needle) { return true }
        return names[entry.row.id].map { $0.lowercased().contains(needle) } ?? false
    }

    /// Fetches every row not fetched yet, whole, one call per section (rows fetched as
    /// previews are fetched again).
    public func loadAll() {
        for section in outlines.indices where !whole[section] {
            let pageCount = (outlines[section].rowCount + pageSize - 1) / pageSize
            if previewCharacters > 0 || pages[section].count < pageCount {
                store(section, offset: 0, limit: 0, preview: false)
            }
            whole[section] = failure == nil
        }
    }

    /// The fetched row `row` of `section`, fetching its page first when needed.
    private func entry(_ section: Int, _ row: Int) -> Entry? {
        let page = row / pageSize
        if pages[section][page] == nil {
            guard failure == nil else { return nil }
            store(section, offset: page * pageSize, limit: pageSize, preview: previewCharacters > 0)
        }
        guard let entries = pages[section][page], row % pageSize < entries.count else { return nil }
        return entries[row % pageSize]
    }

    /// Fetches rows of `section` (`limit` 0: all from `offset`), as previews or whole, and
    /// keeps them by page.
    private func store(_ section: Int, offset: Int, limit: Int, preview: Bool) {
        guard failure == nil else { return }
        fetchCount += 1
        let rowCount = outlines[section].rowCount
        let end = limit == 0 ? rowCount : min(rowCount, offset + limit)
        do {
            let rows =
                preview
                ? try source.previews(
                    section: section, offset: offset, limit: limit, characters: previewCharacters)
                : try source.rows(section: section, offset: offset, limit: limit)
            var index = offset
            while index < end {
                let page = index / pageSize
                let pageEnd = min(end, (page + 1) * pageSize)
                var entries: [Entry] = []
                entries.reserveCapacity(pageEnd - index)
                for position in index..<pageEnd {
                    let fetched = position - offset
                    if fetched < rows.count && secret {
                        // Nothing of a secret's text is kept: not shown, not matched.
                        let row = FetchedRow(id: rows[fetched].id, text: "")
                        entries.append(Entry(row: row, shown: MenuLine.secretMask))
                    } else if fetched < rows.count {
                        let row = rows[fetched]
                        entries.append(Entry(row: row, shown: MenuLine.oneLine(row.text)))
                    } else {
                        // Rows deleted since the counts were read: shown as gone, not fetched again.
                        entries.append(Entry(row: FetchedRow(id: 0, text: ""), shown: "(gone)"))
                    }
                }
                pages[section][page] = entries
                index = pageEnd
            }
        } catch {
            failure = error
        }
    }
}
