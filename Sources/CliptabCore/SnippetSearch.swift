// SPDX-License-Identifier: MIT

/// The desktop search over every table: which rows match a search's terms, in the order a
/// result list shows them, and finding a result again from its identifier.
///
/// A row matches when every term is found, ignoring case, in its text, its name or its
/// section's header (each term may be found in a different one). A secret table's rows
/// are matched by name and header only, so that which rows match says nothing of their
/// text. The named rows come first, then the others, each in table (by name), section and
/// row order.
///
/// Pure and bounded: a search spends a `MatchBudget` (one step per byte compared, and
/// `perRowSteps` for each row), and when that runs out it returns what it found so far.
public enum SnippetSearch {
    /// The steps one search gets: the budget of a `DeleteWhere` divided by ten, so that a
    /// search keyed at every keystroke holds other clients up a tenth as long at most.
    public static let defaultSteps = MatchBudget.defaultSteps / 10

    /// The fixed cost of one row, in steps: the walk to it and the look-up of its name.
    public static let perRowSteps = 8

    /// The rows matching `terms`, at most `limit` of them, named rows first; `complete` is
    /// false when the budget ran out before every row was seen.
    public static func search(
        _ catalog: Catalog, _ terms: SearchTerms, limit: Int, budget: inout MatchBudget
    ) -> (hits: [SearchHit], complete: Bool) {
        guard !terms.isEmpty, limit > 0 else { return ([], true) }
        var named: [SearchHit] = []
        var unnamed: [SearchHit] = []
        var complete = true
        do {
            for name in catalog.tableNames {
                guard named.count < limit, let table = catalog.tables[name] else { break }
                // Once the unnamed rows are enough, only named rows can still enter the list.
                if unnamed.count >= limit && table.names.isEmpty { continue }
                try budget.charge(perRowSteps)
                for (s, section) in table.sections.enumerated() {
                    let headerMask = try mask(section.header, terms, need: terms.allTerms, &budget)
                    var r: Int32 = -1
                    for row in section.rows {
                        r += 1
                        try budget.charge(perRowSteps)
                        let rowName = table.names.isEmpty ? nil : table.names.name(of: row.id)
                        if rowName == nil && unnamed.count >= limit { continue }
                        var need = terms.allTerms & ~headerMask
                        if need != 0, let rowName { need &= ~(try mask(rowName, terms, need: need, &budget)) }
                        if need != 0 {
                            if table.record.isSecret { continue }
                            guard try mask(row.text, terms, need: need, &budget, all: true) == need else {
                                continue
                            }
                        }
                        let hit = SearchHit(
                            id: SearchResultID(
                                rowID: row.id, tableID: table.record.id, sectionID: section.id, key: row.key),
                            table: name, section: Int32(s), row: r, header: section.header, name: rowName,
                            isSecret: table.record.isSecret, text: row.text)
                        if rowName == nil { unnamed.append(hit) } else { named.append(hit) }
                        if named.count >= limit { break }
                    }
                    if named.count >= limit { break }
                }
            }
        } catch {
            complete = false
        }
        return (Array((named + unnamed).prefix(limit)), complete)
    }

    /// The row `id` names, where it is now: found at its recorded place with a binary search,
    /// or else by its row id over every table (it moved); nil when it is gone or the budget
    /// ran out looking.
    public static func resolve(_ id: SearchResultID, in catalog: Catalog, budget: inout MatchBudget)
        -> SearchHit?
    {
        for table in catalog.tables.values where table.record.id == id.tableID {
            if let s = table.sections.firstIndex(where: { $0.id == id.sectionID }),
                let r = table.sections[s].rows.index(ofKey: id.key, id: id.rowID)
            {
                return hit(table, s, r, table.sections[s].rows[r])
            }
        }
        do {
            for table in catalog.tables.values {
                for (s, section) in table.sections.enumerated() {
                    try budget.charge(section.rows.count)
                    var r = -1
                    for row in section.rows {
                        r += 1
                        if row.id == id.rowID { return hit(table, s, r, row) }
                    }
                }
            }
        } catch {
            return nil
        }
        return nil
    }

    /// The hit for `row`, at index `r` of section `s` of `table`.
    private static func hit(_ table: Table, _ s: Int, _ r: Int, _ row: Row) -> SearchHit {
        let section = table.sections[s]
        return SearchHit(
            id: SearchResultID(rowID: row.id, tableID: table.record.id, sectionID: section.id, key: row.key),
            table: table.name, section: Int32(s), row: Int32(r), header: section.header,
            name: table.names.name(of: row.id), isSecret: table.record.isSecret, text: row.text)
    }

    // MARK: - Matching

    /// The terms among `need` found in `text`, as a mask; with `all`, stops at the first term
    /// missing (the caller needs every one).
    static func mask(
        _ text: String, _ terms: SearchTerms, need: UInt64, _ budget: inout MatchBudget, all: Bool = false
    ) throws(CliptabError) -> UInt64 {
        if text.isEmpty { return 0 }
        var found: UInt64 = 0
        var lowered: [UInt8]?
        for (index, term) in terms.terms.enumerated() where need & (1 << UInt64(index)) != 0 {
            let limit = budget.remaining
            var (hit, nonASCII, spent) =
                text.utf8.withContiguousStorageIfAvailable { find(term, in: $0, limit: limit) }
                ?? Array(text.utf8).withUnsafeBufferPointer { find(term, in: $0, limit: limit) }
            try budget.charge(spent)
            // Outside ASCII, case folding can change lengths: search the lowercased text.
            if !hit && nonASCII {
                if lowered == nil {
                    try budget.charge(8 * text.utf8.count)
                    lowered = Array(text.lowercased().utf8)
                }
                let left = budget.remaining
                (hit, _, spent) = lowered!.withUnsafeBufferPointer { find(term, in: $0, limit: left) }
                try budget.charge(spent)
            }
            if hit {
                found |= 1 << UInt64(index)
            } else if all {
                return found
            }
        }
        return found
    }

    /// Whether `term` (lowercased) occurs in `bytes` with ASCII letters folded to lower case.
    ///
    /// Also whether `bytes` has a byte outside ASCII before the match (or at all), and the
    /// steps spent: one per byte of `bytes`, and one per byte compared after a first byte
    /// matched. It stops, not found, once the steps pass `limit`.
    static func find(_ term: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, limit: Int)
        -> (found: Bool, nonASCII: Bool, spent: Int)
    {
        let n = bytes.count
        let m = term.count
        guard m > 0 else { return (true, false, 0) }
        var spent = n
        guard spent <= limit else { return (false, false, spent) }
        let first = term[0]
        var nonASCII = false
        var i = 0
        while i < n {
            var byte = bytes[i]
            if byte >= 0x80 {
                nonASCII = true
            } else if byte &- 65 < 26 {
                byte |= 0x20
            }
            if byte == first && i + m <= n {
                var j = 1
                while j < m {
                    var other = bytes[i + j]
                    if other &- 65 < 26 { other |= 0x20 }
                    if other != term[j] { break }
                    j += 1
                }
                if j == m { return (true, nonASCII, spent) }
                spent += j
                if spent > limit { return (false, nonASCII, spent) }
            }
            i += 1
        }
        return (false, nonASCII, spent)
    }
}
