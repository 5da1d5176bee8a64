// SPDX-License-Identifier: MIT

/// How a document maps onto a table: which of the table's sections and rows each of the
/// document's is (the identity rules of `docs/table-file.md`), and which stay where they are.
///
/// Every step is a pass over the table or the document with hash maps, plus the longest
/// increasing runs that choose the fewest moves: O(n log n) in all, never pairwise.
struct DocumentPlan {
    let table: Table
    let document: TableDocument

    /// The table's rows in order, all sections after each other ("flat" indexes).
    var rows: [Row] = []
    /// The table section of each flat row.
    var sectionOfRow: [Int] = []
    /// The flat index of each table section's first row, and the row count at the end.
    var sectionStart: [Int] = []
    /// The names of the table's rows by flat index (empty for none).
    var rowNames: [String] = []

    /// For each document section, its table section, or -1 for a new one.
    var sectionMatch: [Int] = []
    /// For each table section, its document section, or -1 when it goes.
    var tableSectionDoc: [Int] = []
    /// For each document row (by section, then row), its table row's flat index, or -1.
    var rowMatch: [[Int]] = []
    /// Whether each table row (flat) is matched.
    var rowMatched: [Bool] = []
    /// Whether each matched document section keeps its place (others move).
    var sectionStays: [Bool] = []
    /// Whether each matched document row keeps its place in its section (others move).
    var rowStays: [[Bool]] = []

    init(table: Table, document: TableDocument) {
        self.table = table
        self.document = document
        flatten()
        matchSections()
        matchCommonStart()
        matchNamedRows()
        matchRowsByText()
        pairLeftoverRows()
        chooseStayingSections()
        chooseStayingRows()
    }

    private mutating func flatten() {
        let total = table.rowCount
        rows.reserveCapacity(total)
        sectionOfRow.reserveCapacity(total)
        for (s, section) in table.sections.enumerated() {
            sectionStart.append(rows.count)
            for row in section.rows {
                rows.append(row)
                sectionOfRow.append(s)
            }
        }
        sectionStart.append(rows.count)
        rowNames = [String](repeating: "", count: rows.count)
        if !table.names.isEmpty {
            for (index, row) in rows.enumerated() { rowNames[index] = table.names.name(of: row.id) ?? "" }
        }
        rowMatched = [Bool](repeating: false, count: rows.count)
        rowMatch = document.sections.map { [Int](repeating: -1, count: $0.rows.count) }
    }

    /// Rule 3: by header (no header being one too) in order, then the rest in order.
    private mutating func matchSections() {
        sectionMatch = [Int](repeating: -1, count: document.sections.count)
        tableSectionDoc = [Int](repeating: -1, count: table.sections.count)
        var byHeader: [String: [Int]] = [:]
        for (i, section) in table.sections.enumerated() { byHeader[section.header, default: []].append(i) }
        var used: [String: Int] = [:]
        for (j, section) in document.sections.enumerated() {
            guard let candidates = byHeader[section.header] else { continue }
            let next = used[section.header, default: 0]
            guard next < candidates.count else { continue }
            used[section.header] = next + 1
            sectionMatch[j] = candidates[next]
            tableSectionDoc[candidates[next]] = j
        }
        var leftover = tableSectionDoc.indices.filter { tableSectionDoc[$0] < 0 }.makeIterator()
        for j in document.sections.indices where sectionMatch[j] < 0 {
            guard let i = leftover.next() else { break }
            sectionMatch[j] = i
            tableSectionDoc[i] = j
        }
    }

    /// The flat index of the table row at section `s`, row `r`.
    private func flat(_ s: Int, _ r: Int) -> Int { sectionStart[s] + r }

    /// Rule 1: a named row is the table's row of that name, wherever it is.
    private mutating func matchNamedRows() {
        guard !table.names.isEmpty else { return }
        var sectionIndexes: [UInt64: Int] = [:]
        for (s, section) in table.sections.enumerated() { sectionIndexes[section.id] = s }
        for (j, section) in document.sections.enumerated() {
            for (p, row) in section.rows.enumerated() where !row.name.isEmpty && rowMatch[j][p] < 0 {
                guard let place = table.names.place(of: row.name), let s = sectionIndexes[place.sectionID],
                    let r = table.sections[s].rows.index(ofKey: place.key, id: place.rowID)
                else { continue }
                let f = flat(s, r)
                guard !rowMatched[f] else { continue }
                rowMatch[j][p] = f
                rowMatched[f] = true
            }
        }
    }

    /// The value of an entry, set to `f` if it had none (-1).
    private static func claim(_ entry: inout Int, _ f: Int) -> Int {
        if entry < 0 { entry = f }
        return entry
    }

    /// Matches the rows where the document starts as the table does, without hashing.
    ///
    /// Same sections in order, each row's name and text the same: exactly what rules 1 and 2
    /// would match there, since each is then the first candidate in table order. Most
    /// documents are the table with a few edits.
    private mutating func matchCommonStart() {
        for (j, section) in document.sections.enumerated() {
            guard sectionMatch[j] == j else { return }
            let start = sectionStart[j]
            let count = sectionStart[j + 1] - start
            for (p, row) in section.rows.enumerated() {
                guard p < count, rowNames[start + p] == row.name, rows[start + p].text == row.text else {
                    return
                }
                rowMatch[j][p] = start + p
                rowMatched[start + p] = true
            }
            guard section.rows.count == count else { return }
        }
    }

    /// Rule 2: an unnamed row is the first unmatched unnamed table row of the same text.
    ///
    /// One dictionary from each text to its first candidate, and the later ones chained by
    /// index: an array per text cost an allocation per row.
    private mutating func matchRowsByText() {
        var first: [String: Int] = [:]
        first.reserveCapacity(rows.count)
        var next = [Int](repeating: -1, count: rows.count)
        // The end of each chain while it is built, kept at its head's index.
        var tail = [Int](repeating: -1, count: rows.count)
        for f in rows.indices where !rowMatched[f] && rowNames[f].isEmpty {
            // One lookup: the entry is read and, for a new text, written in place.
            let head = Self.claim(&first[rows[f].text, default: -1], f)
            if head == f {
                tail[f] = f
            } else {
                next[tail[head]] = f
                tail[head] = f
            }
        }
        guard !first.isEmpty else { return }
        for (j, section) in document.sections.enumerated() {
            for (p, row) in section.rows.enumerated() where row.name.isEmpty && rowMatch[j][p] < 0 {
                // One lookup: the chain's head is taken and advanced in place.
                guard let index = first.index(forKey: row.text) else { continue }
                let f = first.values[index]
                guard f >= 0 else { continue }
                first.values[index] = next[f]
                rowMatch[j][p] = f
                rowMatched[f] = true
            }
        }
    }

    /// Two neighbouring matched rows (flat table indexes; -1 the section's start, -2 its end).
    private struct Neighbours: Hashable {
        var before: Int
        var after: Int
    }

    /// Rule 4: within a matched section, leftovers between the same matched neighbours on
    /// both sides are paired in order (an edit in place).
    private mutating func pairLeftoverRows() {
        for (j, section) in document.sections.enumerated() {
            let i = sectionMatch[j]
            guard i >= 0 else { continue }
            var runs: [Neighbours: [Int]] = [:]
            var run: [Int] = []
            var before = -1
            for f in sectionStart[i]..<sectionStart[i + 1] {
                if rowMatched[f] {
                    if !run.isEmpty { runs[Neighbours(before: before, after: f)] = run }
                    run = []
                    before = f
                } else {
                    run.append(f)
                }
            }
            if !run.isEmpty { runs[Neighbours(before: before, after: -2)] = run }
            guard !runs.isEmpty else { continue }
            var pending: [Int] = []
            before = -1
            for p in 0...section.rows.count {
                let anchor = p < section.rows.count ? rowMatch[j][p] : -2
                if anchor == -1 {
                    pending.append(p)
                    continue
                }
                if !pending.isEmpty, let leftovers = runs[Neighbours(before: before, after: anchor)] {
                    for (p, f) in zip(pending, leftovers) {
                        rowMatch[j][p] = f
                        rowMatched[f] = true
                    }
                }
                pending = []
                before = anchor
            }
        }
    }

    /// The matched sections in the longest run that keeps the table's order stay; the others move.
    private mutating func chooseStayingSections() {
        let matched = document.sections.indices.filter { sectionMatch[$0] >= 0 }
        sectionStays = [Bool](repeating: false, count: document.sections.count)
        for k in longestIncreasingRun(matched.map { sectionMatch[$0] }) { sectionStays[matched[k]] = true }
    }

    /// In each section, the rows of its table section in the longest run that keeps their
    /// order stay; the others (and rows from other sections) move.
    private mutating func chooseStayingRows() {
        rowStays = document.sections.map { [Bool](repeating: false, count: $0.rows.count) }
        for j in document.sections.indices {
            let i = sectionMatch[j]
            guard i >= 0 else { continue }
            var positions: [Int] = []
            var values: [Int] = []
            for (p, f) in rowMatch[j].enumerated() where f >= 0 && sectionOfRow[f] == i {
                positions.append(p)
                values.append(f)
            }
            for k in longestIncreasingRun(values) { rowStays[j][positions[k]] = true }
        }
    }

    /// Whether the matched document row at (j, p) differs from its table row in text or name.
    func rowChanged(_ j: Int, _ p: Int) -> Bool {
        let f = rowMatch[j][p]
        let row = document.sections[j].rows[p]
        return rows[f].text != row.text || rowNames[f] != row.name
    }

    /// The counts of the plan.
    func counts() -> ApplyCounts {
        var counts = ApplyCounts()
        for (j, section) in document.sections.enumerated() {
            let i = sectionMatch[j]
            if i < 0 {
                counts.sectionsAdded += 1
            } else {
                if !sectionStays[j] { counts.sectionsMoved += 1 }
                let old = table.sections[i]
                if old.header != section.header || old.footer != section.footer {
                    counts.sectionsChanged += 1
                }
            }
            for p in section.rows.indices {
                if rowMatch[j][p] < 0 {
                    counts.rowsAdded += 1
                    continue
                }
                if !rowStays[j][p] { counts.rowsMoved += 1 }
                if rowChanged(j, p) { counts.rowsChanged += 1 }
            }
        }
        counts.sectionsDeleted = tableSectionDoc.filter { $0 < 0 }.count
        counts.rowsDeleted = rowMatched.filter { !$0 }.count
        if let templates = document.templates, templates != table.record.isTemplates {
            counts.settingsChanged += 1
        }
        if let actions = document.actions, actions != table.record.allowedActions {
            counts.settingsChanged += 1
        }
        return counts
    }
}
