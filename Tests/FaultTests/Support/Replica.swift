// SPDX-License-Identifier: MIT
import DBus
import DaemonTestSupport
import TestSupport

/// A change to one table, as a client sends it.
enum Mutation: CustomStringConvertible {
    case insertRow(section: Int32, row: Int32, text: String)
    case insertRows(section: Int32, row: Int32, texts: [String])
    case setCell(section: Int32, row: Int32, text: String)
    case deleteRow(section: Int32, row: Int32)
    case deleteRows(sections: [Int32], rows: [Int32])
    case moveRow(fromSection: Int32, fromRow: Int32, toSection: Int32, toRow: Int32)
    case insertSection(index: Int32, header: String, footer: String)
    case deleteSections([Int32])
    case moveSection(from: Int32, to: Int32)
    case setHeader(section: Int32, text: String)
    case setFooter(section: Int32, text: String)
    case deleteWhereEquals(String)

    /// The method name.
    var member: String {
        switch self {
        case .insertRow: return "InsertRow"
        case .insertRows: return "InsertRows"
        case .setCell: return "SetCell"
        case .deleteRow: return "DeleteRow"
        case .deleteRows: return "DeleteRows"
        case .moveRow: return "MoveRow"
        case .insertSection: return "InsertSection"
        case .deleteSections: return "DeleteSections"
        case .moveSection: return "MoveSection"
        case .setHeader: return "SetHeader"
        case .setFooter: return "SetFooter"
        case .deleteWhereEquals: return "DeleteWhere"
        }
    }

    /// The arguments for table `table`.
    func arguments(_ table: String) -> [BusValue] {
        switch self {
        case .insertRow(let section, let row, let text): return [s(table), i(section), i(row), s(text)]
        case .insertRows(let section, let row, let texts):
            return [s(table), i(section), i(row), strings(texts)]
        case .setCell(let section, let row, let text): return [s(table), i(section), i(row), s(text)]
        case .deleteRow(let section, let row): return [s(table), i(section), i(row)]
        case .deleteRows(let sections, let rows): return [s(table), ai(sections), ai(rows)]
        case .moveRow(let fs, let fr, let ts, let tr): return [s(table), i(fs), i(fr), i(ts), i(tr)]
        case .insertSection(let index, let header, let footer):
            return [s(table), i(index), s(header), s(footer)]
        case .deleteSections(let sections): return [s(table), ai(sections)]
        case .moveSection(let from, let to): return [s(table), i(from), i(to)]
        case .setHeader(let section, let text), .setFooter(let section, let text):
            return [s(table), i(section), s(text)]
        case .deleteWhereEquals(let text): return [s(table), s("equals"), s(text), .boolean(false)]
        }
    }

    /// The method and its arguments, texts shortened.
    var description: String { "\(member)(\(arguments("t").dropFirst().map { "\($0)".prefix(30) }))" }
}

/// A client's copy of one table, built only from the calls it made and the replies it got.
struct ReplicaTable {
    /// One row; `id` nil while unknown (a change whose reply never came).
    struct Row: Equatable {
        var id: UInt64?
        var text: String
    }

    /// One section.
    struct Section: Equatable {
        var header = ""
        var footer = ""
        var rows: [Row] = []
    }

    /// The revision.
    var revision: UInt64 = 0
    /// The sections; a new table has one empty one.
    var sections: [Section] = [Section()]

    /// The number of rows.
    var rowCount: Int { sections.reduce(0) { $0 + $1.rows.count } }

    /// Applies a change that succeeded; `reply` carries its out-values, or is nil when the
    /// reply was lost (new row ids are then unknown).
    mutating func apply(_ mutation: Mutation, reply: [BusValue]?) {
        revision += 1
        switch mutation {
        case .insertRow(let section, let row, let text):
            var id: UInt64?
            if case .uint64(let value)? = reply?.first { id = value }
            let rows = sections[Int(section)].rows
            sections[Int(section)].rows.insert(Row(id: id, text: text), at: row == -1 ? rows.count : Int(row))
        case .insertRows(let section, let row, let texts):
            var ids: [UInt64?] = Array(repeating: nil, count: texts.count)
            if case .array(_, let values)? = reply?.first {
                ids = values.map { if case .uint64(let id) = $0 { return id } else { return nil } }
            }
            let start = row == -1 ? sections[Int(section)].rows.count : Int(row)
            sections[Int(section)].rows.insert(
                contentsOf: zip(ids, texts).map { Row(id: $0, text: $1) }, at: start)
        case .setCell(let section, let row, let text):
            sections[Int(section)].rows[Int(row)].text = text
        case .deleteRow(let section, let row):
            sections[Int(section)].rows.remove(at: Int(row))
        case .deleteRows(let sectionIndexes, let rowIndexes):
            let paths = zip(sectionIndexes, rowIndexes).sorted { ($0.0, $0.1) > ($1.0, $1.1) }
            for (section, row) in paths { sections[Int(section)].rows.remove(at: Int(row)) }
        case .moveRow(let fs, let fr, let ts, let tr):
            let moving = sections[Int(fs)].rows.remove(at: Int(fr))
            sections[Int(ts)].rows.insert(moving, at: Int(tr))
        case .insertSection(let index, let header, let footer):
            let section = Section(header: header, footer: footer)
            sections.insert(section, at: index == -1 ? sections.count : Int(index))
        case .deleteSections(let indexes):
            for index in indexes.sorted(by: >) { sections.remove(at: Int(index)) }
        case .moveSection(let from, let to):
            let moving = sections.remove(at: Int(from))
            sections.insert(moving, at: Int(to))
        case .setHeader(let section, let text): sections[Int(section)].header = text
        case .setFooter(let section, let text): sections[Int(section)].footer = text
        case .deleteWhereEquals(let text):
            for index in sections.indices { sections[index].rows.removeAll { $0.text == text } }
        }
    }

    /// True when the daemon must accept `mutation` on this table (indexes are never
    /// negative here but for -1 at an insertion).
    func isValid(_ mutation: Mutation) -> Bool {
        func section(_ index: Int32) -> Bool { index >= 0 && Int(index) < sections.count }
        func row(_ s: Int32, _ r: Int32) -> Bool {
            section(s) && r >= 0 && Int(r) < sections[Int(s)].rows.count
        }
        func place(_ s: Int32, _ r: Int32) -> Bool {
            section(s) && (r == -1 || (r >= 0 && Int(r) <= sections[Int(s)].rows.count))
        }
        switch mutation {
        case .insertRow(let s, let r, _), .insertRows(let s, let r, _): return place(s, r)
        case .setCell(let s, let r, _), .deleteRow(let s, let r): return row(s, r)
        case .deleteRows(let ss, let rs):
            let paths = zip(ss, rs).map { [$0, $1] }
            return zip(ss, rs).allSatisfy { row($0, $1) } && Set(paths).count == paths.count
        case .moveRow(let fs, let fr, let ts, let tr):
            guard row(fs, fr), section(ts) else { return false }
            return tr >= 0 && Int(tr) <= sections[Int(ts)].rows.count - (ts == fs ? 1 : 0)
        case .insertSection(let index, _, _):
            return index == -1 || (index >= 0 && Int(index) <= sections.count)
        case .deleteSections(let indexes):
            return indexes.allSatisfy(section) && Set(indexes).count == indexes.count
        case .moveSection(let from, let to): return section(from) && section(to)
        case .setHeader(let s, _), .setFooter(let s, _): return section(s)
        case .deleteWhereEquals: return true
        }
    }

    /// The pre-deletion paths `DeleteWhere(equals, text)` must answer.
    func paths(equal text: String) -> [BusValue] {
        var paths: [BusValue] = []
        for (s, section) in sections.enumerated() {
            for (r, row) in section.rows.enumerated() where row.text == text {
                paths.append(.structure([.int32(Int32(s)), .int32(Int32(r))]))
            }
        }
        return paths
    }

    /// True when `table` holds exactly this content (unknown ids match any id).
    func matches(_ table: TableSnapshot) -> Bool {
        guard revision == table.revision, sections.count == table.sections.count else { return false }
        for (mine, theirs) in zip(sections, table.sections) {
            guard mine.header == theirs.header, mine.footer == theirs.footer,
                mine.rows.count == theirs.rows.count
            else { return false }
            for (a, b) in zip(mine.rows, theirs.rows) where a.text != b.text || (a.id != nil && a.id != b.id)
            {
                return false
            }
        }
        return true
    }

    /// Takes the ids of rows whose id was unknown from `table` (which `matches`); returns them.
    mutating func adoptIDs(from table: TableSnapshot) -> [UInt64] {
        var adopted: [UInt64] = []
        for s in sections.indices {
            for r in sections[s].rows.indices where sections[s].rows[r].id == nil {
                let id = table.sections[s].rows[r].id
                sections[s].rows[r].id = id
                adopted.append(id)
            }
        }
        return adopted
    }

    /// A random change: valid for this table, except with probability `invalid` one that
    /// must be refused (an index out of range); returns it and whether it is valid.
    func randomMutation(_ random: inout SeededRandom, invalid: Double = 0.1) -> (Mutation, Bool) {
        // Clients that delete sections at once can leave none: add one back.
        guard !sections.isEmpty else {
            return (.insertSection(index: -1, header: random.text(), footer: ""), true)
        }
        let bad = random.chance(invalid)
        let sectionCount = sections.count
        let rows = rowCount
        // Keep tables small: more deletions as they grow.
        let grow = rows < 40 ? 0.6 : rows > 80 ? 0.25 : 0.45
        enum Kind {
            case insert, insertMany, set, delete, deleteMany, move, section, dropSection, moveSection,
                title, deleteWhere
        }
        var kinds: [Kind] = [.set, .move, .title, .moveSection]
        if random.chance(grow) {
            kinds += [.insert, .insert, .insert, .insertMany]
            if sectionCount < 6 { kinds.append(.section) }
        } else {
            kinds += [.delete, .delete, .deleteMany, .deleteWhere]
            if sectionCount > 1 { kinds.append(.dropSection) }
        }
        let nonEmpty = sections.indices.filter { !sections[$0].rows.isEmpty }.map { Int32($0) }
        func anyRow() -> (Int32, Int32)? {
            guard !nonEmpty.isEmpty else { return nil }
            let section = random.pick(nonEmpty)
            return (section, random.int32(0...sections[Int(section)].rows.count - 1))
        }
        let section = random.int32(0...sectionCount - 1)
        let count = sections[Int(section)].rows.count
        if bad {
            // An index past the end: the daemon must refuse it and change nothing.
            let far = Int32(count) + random.int32(1...5)
            switch random.pick([0, 1, 2, 3]) {
            case 0: return (.insertRow(section: section, row: far, text: random.text()), false)
            case 1: return (.deleteRow(section: Int32(sectionCount) + random.int32(0...3), row: 0), false)
            case 2: return (.setCell(section: section, row: far, text: random.text()), false)
            default: return (.moveSection(from: 0, to: Int32(sectionCount) + random.int32(0...3)), false)
            }
        }
        switch random.pick(kinds) {
        case .insert:
            let row = random.chance(0.3) ? -1 : random.int32(0...count)
            return (.insertRow(section: section, row: row, text: random.text()), true)
        case .insertMany:
            let texts = (0..<Int.random(in: 1...5, using: &random)).map { _ in random.text() }
            return (.insertRows(section: section, row: random.int32(0...count), texts: texts), true)
        case .set:
            guard let (s, r) = anyRow() else { break }
            return (.setCell(section: s, row: r, text: random.text()), true)
        case .delete:
            guard let (s, r) = anyRow() else { break }
            return (.deleteRow(section: s, row: r), true)
        case .deleteMany:
            var paths: [(Int32, Int32)] = []
            for _ in 0..<3 {
                if let path = anyRow(), !paths.contains(where: { $0 == path }) { paths.append(path) }
            }
            guard !paths.isEmpty else { break }
            return (.deleteRows(sections: paths.map(\.0), rows: paths.map(\.1)), true)
        case .move:
            guard let (fs, fr) = anyRow() else { break }
            let ts = random.int32(0...sectionCount - 1)
            let after = sections[Int(ts)].rows.count - (ts == fs ? 1 : 0)
            return (
                .moveRow(fromSection: fs, fromRow: fr, toSection: ts, toRow: random.int32(0...after)), true
            )
        case .section:
            let index = random.chance(0.3) ? -1 : random.int32(0...sectionCount)
            return (.insertSection(index: index, header: random.text(), footer: random.text()), true)
        case .dropSection:
            return (.deleteSections([section]), true)
        case .moveSection:
            return (.moveSection(from: section, to: random.int32(0...sectionCount - 1)), true)
        case .title:
            return random.chance(0.5)
                ? (.setHeader(section: section, text: random.text()), true)
                : (.setFooter(section: section, text: random.text()), true)
        case .deleteWhere:
            guard let (s, r) = anyRow() else { break }
            return (.deleteWhereEquals(sections[Int(s)].rows[Int(r)].text), true)
        }
        return (.insertRow(section: section, row: -1, text: random.text()), true)
    }
}
