// SPDX-License-Identifier: MIT
import CliptabCore
import TestSupport

/// The generator: random calls, mostly valid, aimed at the edges of every argument.
extension ModelRun {
    private static let tableNames = ["alpha", "beta", "gamma", "delta", String(repeating: "m", count: 255)]
    private static let badNames = [
        "", "a/b", "bell\u{7}", "del\u{7F}", "c1\u{85}", "tab\tname", String(repeating: "n", count: 256),
    ]
    private static let texts = [
        "apple", "Banana", "cherry pie", "x1", "a,b", "tab\there", "two\nlines", "##hash", "", "ü", "日本",
        "é", "Section 1 Cell 1", "0", "2", "-3", "2.5", "10", "7", "-0.5", "100", "nul\u{0}byte",
        "éééééé", "ééééééé", "123456789012", "1234567890123",
    ]
    private static let headers = ["", "Even Numbers", "Odd Numbers", "H", "é", "e\u{301}", "Header number"]
    private static let footers = ["", "end", "Footer text!!"]
    private static let operators = [
        "equals", "contains", "prefix", "suffix", "matches", ">", ">=", "<", "<=", "==", "!=", "like",
    ]
    private static let operands = [
        "a", "e", "apple", "", "x", "1", "2", "-3", "2.5", "0", "e\u{301}", "é", "an",
    ]
    private static let rowNames = ["sig", "addr", "a.b-c", "_x", "", "9x", "a b", "#1"]
    private static let actionNames = TableAction.allCases.map(\.rawValue)

    private func tableName() -> String {
        let existing = reference.tables.keys.sorted()
        if !existing.isEmpty && rng.percent(88) { return rng.pick(existing) }
        return rng.percent(50) ? "missing" : rng.pick(Self.tableNames)
    }

    private func existingIndex(_ count: Int) -> Int32 {
        let roll = rng.below(100)
        switch roll {
        case 0..<60: return count > 0 ? Int32(rng.below(count)) : 0
        case 60..<76: return count > 0 ? -Int32(1 + rng.below(count)) : -1
        case 76..<82: return Int32(count)
        case 82..<86: return Int32(-count - 1)
        case 86..<90: return .min
        case 90..<94: return .max
        default: return Int32(count + 1 + rng.below(4))
        }
    }

    private func insertionIndex(_ count: Int) -> Int32 {
        let roll = rng.below(100)
        switch roll {
        case 0..<62: return Int32(rng.below(count + 1))
        case 62..<80: return -1
        case 80..<86: return Int32(count + 1)
        case 86..<90: return -2
        case 90..<93: return .min
        case 93..<96: return .max
        default: return Int32(-count - 2)
        }
    }

    private func text() -> String {
        rng.percent(90) ? rng.pick(Self.texts) : String(repeating: "x", count: 10 + rng.below(5))
    }

    private func sectionCount(_ name: String) -> Int { reference.tables[name]?.sections.count ?? 1 }

    private func rowCount(_ name: String, _ section: Int32) -> Int {
        guard let table = reference.tables[name] else { return 1 }
        let count = table.sections.count
        let s = section < 0 ? Int(section) + count : Int(section)
        return s >= 0 && s < count ? table.sections[s].rows.count : 1
    }

    private func path(_ name: String) -> (Int32, Int32) {
        let section = existingIndex(sectionCount(name))
        return (section, existingIndex(rowCount(name, section)))
    }

    private func indexList(_ count: Int) -> [Int32] {
        var list = (0..<rng.below(4)).map { _ in existingIndex(count) }
        if !list.isEmpty && rng.percent(15) {
            list.append(rng.percent(50) ? list[0] : Self.alias(list[0], count))
        }
        return list
    }

    /// The other name of an existing index (`i` and `i - count`), or the index itself.
    private static func alias(_ index: Int32, _ count: Int) -> Int32 {
        if index >= 0 && Int(index) < count { return Int32(Int(index) - count) }
        if index < 0 && Int(index) >= -count { return Int32(Int(index) + count) }
        return index
    }

    private func importDocument() -> ([ReferenceSection], String) {
        var sections: [ReferenceSection] = []
        var data = ""
        for index in 0..<(1 + rng.below(3)) {
            var section = ReferenceSection()
            let rows = (0..<rng.below(4)).map { _ in
                rng.pick(["apple", "2", "7", "-3", "ü", "a,b", "cherry pie", "Section 1 Cell 1", "tab\there"])
            }
            section.rows = rows.map { ReferenceRow(id: 0, text: $0) }
            if index == 0 && !rows.isEmpty && rng.percent(30) {
                // Rows before the first "##" line form a section without header.
            } else if rng.percent(25) {
                data += "##\n"
            } else {
                section.header = rng.pick(["Even Numbers", "Odd Numbers", "H", "Header number"])
                data += "## \(section.header)\n"
            }
            for row in rows { data += row + "\n" }
            sections.append(section)
        }
        return (sections, data)
    }

    private func allowedActions() -> [String] {
        let roll = rng.below(100)
        switch roll {
        case 0..<50: return Self.actionNames
        case 50..<80:
            let dropped = rng.pick(Self.actionNames)
            return Self.actionNames.filter { $0 != dropped }
        case 80..<90: return (0..<rng.below(3)).map { _ in rng.pick(Self.actionNames) }
        default: return ["copy", rng.pick(["Copy", "fly", ""])]
        }
    }

    /// The next random call.
    func nextOperation() -> ModelOperation {
        if reference.tables.isEmpty && rng.percent(60) { return .createTable(rng.pick(Self.tableNames)) }
        let name = tableName()
        let roll = rng.below(136)
        switch roll {
        case 0..<6:
            return .createTable(rng.percent(80) ? rng.pick(Self.tableNames) : rng.pick(Self.badNames))
        case 6..<8:
            return .dropTable(name)
        case 8..<11:
            let newName = rng.percent(80) ? rng.pick(Self.tableNames) : rng.pick(Self.badNames + [name])
            return .renameTable(name, newName)
        case 11..<20:
            return .insertSection(
                name, insertionIndex(sectionCount(name)), rng.pick(Self.headers), rng.pick(Self.footers))
        case 20..<25:
            return .deleteSections(name, indexList(sectionCount(name)))
        case 25..<32:
            let count = sectionCount(name)
            return .moveSection(name, existingIndex(count), existingIndex(count))
        case 32..<35:
            return .setHeader(name, existingIndex(sectionCount(name)), rng.pick(Self.headers))
        case 35..<37:
            return .setFooter(name, existingIndex(sectionCount(name)), rng.pick(Self.footers))
        case 37..<40:
            return .findSection(name, rng.pick(Self.headers))
        case 40..<58:
            let section = existingIndex(sectionCount(name))
            // Now and then a burst: each row of a batch goes between the previous one and the
            // old row at the position, halving that gap, until the keys must be re-spaced.
            let count = rng.percent(8) ? 0 : rng.percent(6) ? 25 + rng.below(20) : 1 + rng.below(4)
            let texts = (0..<count).map { _ in text() }
            return .insertRows(
                name, section, insertionIndex(rowCount(name, section)), texts,
                rng.percent(85) ? .insert : .paste)
        case 58..<63:
            let (section, row) = path(name)
            return .setCell(name, section, row, text())
        case 63..<71:
            var sections: [Int32] = []
            var rows: [Int32] = []
            for _ in 0..<rng.below(4) {
                let (section, row) = path(name)
                sections.append(section)
                rows.append(row)
            }
            if !sections.isEmpty && rng.percent(15) {
                let count = rowCount(name, sections[0])
                sections.append(sections[0])
                rows.append(rng.percent(50) ? rows[0] : Self.alias(rows[0], count))
            }
            if rng.percent(5) { rows.append(0) }
            return .deleteRows(name, sections, rows, rng.percent(85) ? .delete : .cut)
        case 71..<77:
            let op = rng.pick(Self.operators)
            var operand = rng.pick(Self.operands)
            if op == "matches" { operand = rng.pick(["a", "an", "1", "pie", "x", "a("]) }
            if op.first == "<" || op.first == ">" || op.first == "=" || op.first == "!" {
                operand = rng.pick(["2", "-3", "2.5", "0", "7", "abc"])
            }
            return .deleteWhere(name, op, operand, rng.percent(30))
        case 77..<90:
            let (fromSection, fromRow) = path(name)
            let toSection = existingIndex(sectionCount(name))
            var count = rowCount(name, toSection)
            if toSection == fromSection { count -= 1 }
            return .moveRow(name, fromSection, fromRow, toSection, insertionIndex(max(count, 0)))
        case 90..<94:
            return .setAllowedActions(name, allowedActions())
        case 94..<95:
            return .setSecret(name, rng.percent(50))
        case 95..<99:
            let (sections, data) = importDocument()
            let target = rng.percent(70) ? name : rng.pick(Self.tableNames + Self.badNames)
            return .importLines(target, rng.percent(92) ? "lines" : "xml", sections, data, rng.percent(40))
        case 99..<102:
            let (section, row) = path(name)
            return .readCell(name, section, row)
        case 102..<105:
            let section = existingIndex(sectionCount(name))
            let offset = rng.percent(90) ? UInt32(rng.below(rowCount(name, section) + 2)) : .max
            let limit = rng.percent(90) ? UInt32(rng.below(4)) : .max
            return .readRows(name, section, offset, limit)
        case 105..<107:
            return .readSections(name)
        case 107..<112:
            if issuedList.isEmpty || rng.percent(20) { return .locate(rng.percent(50) ? 0 : UInt64.max) }
            return .locate(rng.pick(issuedList))
        case 112..<114:
            let (section, row) = path(name)
            return .actions(name, section, row)
        case 114..<117:
            let (section, row) = path(name)
            return .canPerform(name, rng.percent(90) ? rng.pick(Self.actionNames) : "fly", section, row)
        case 117..<122:
            let (section, row) = path(name)
            return .copy(name, section, row, rng.percent(80) ? .copy : .cut)
        case 122..<125:
            return .copySection(name, existingIndex(sectionCount(name)), rng.pick(["", ", ", "\n"]))
        case 128..<134:
            let (section, row) = path(name)
            return .setRowName(name, section, row, rng.pick(Self.rowNames))
        case 134..<136:
            // Mostly a name the table has, so that finding succeeds often enough to be tested.
            let named =
                reference.tables[name]?.sections.flatMap { $0.rows.map(\.name) }.filter { !$0.isEmpty } ?? []
            return .findRow(
                name, !named.isEmpty && rng.percent(75) ? rng.pick(named) : rng.pick(Self.rowNames))
        default:
            return .listTables
        }
    }
}
