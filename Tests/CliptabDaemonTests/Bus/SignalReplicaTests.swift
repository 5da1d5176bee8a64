// SPDX-License-Identifier: MIT
import CliptabClient
import CliptabContract
import DBus
import DaemonTestSupport
import Glibc
import Posix
import TestSupport
import Testing

/// A copy of every table built from the signal stream alone (UIKit's batch-update contract):
/// sections and row slots, with what no signal carries (texts, titles, the ids of inserted
/// rows) learned from the daemon only where a signal said it changed.
struct SignalReplica {
    struct Row {
        /// Nil until learned: the row was inserted by a signal.
        var id: UInt64?
        /// Nil until learned: the row was inserted or changed.
        var text: String?
    }

    struct Section {
        /// Nil until learned: the section was inserted or changed.
        var header: String?
        var footer: String?
        var rows: [Row] = []
    }

    struct Table {
        var revision: UInt64
        var sections: [Section]
    }

    var tables: [String: Table] = [:]
    /// The last `Tables` value of a `PropertiesChanged` signal.
    var tablesProperty: [String]?
    /// Every row id ever learned: ids are never reused.
    var seenIDs: Set<UInt64> = []
    /// The revisions the section and row signals of the last batch carried, by table.
    var signalRevisions: [String: Set<UInt64>] = [:]

    /// Applies one signal; throws when it cannot apply to the replica (an index out of range,
    /// an unknown table).
    mutating func apply(_ message: BusMessage) throws {
        let values = try message.readValues()
        let member = message.member ?? ""
        if member == "PropertiesChanged" {
            guard values.count > 1, case .dictionary(_, _, let entries) = values[1] else {
                throw FixtureError("bad \(values)")
            }
            for (key, value) in entries where key == .string("Tables") {
                guard case .variant(let names) = value else { throw FixtureError("bad Tables \(value)") }
                tablesProperty = try decodeStrings(names)
            }
            return
        }
        // Decoded by the clients' one decoder, which must read everything the daemon sends.
        guard let signal = ChangeSignal(message) else { throw FixtureError("undecoded \(member) \(values)") }
        switch signal {
        case .tableAdded(let name):
            guard tables[name] == nil else { throw FixtureError("TableAdded for existing \(name)") }
            // A new table starts with one empty section without titles.
            tables[name] = Table(revision: 0, sections: [Section(header: "", footer: "")])
            return
        case .tableRemoved(let name):
            guard tables.removeValue(forKey: name) != nil else { throw FixtureError("TableRemoved \(name)") }
            return
        case .tableRenamed(let name, let new):
            guard let table = tables.removeValue(forKey: name), tables[new] == nil
            else { throw FixtureError("TableRenamed \(values)") }
            tables[new] = table
            return
        case .clipboardChanged:
            throw FixtureError("ClipboardChanged without a clipboard")
        default:
            break
        }
        guard let name = signal.table, let revision = signal.revision, var table = tables[name] else {
            throw FixtureError("\(member) for unknown table \(values)")
        }
        table.revision = revision
        signalRevisions[name, default: []].insert(revision)
        func sorted(_ paths: [CellPath]) -> [(Int, Int)] {
            paths.map { (Int($0.section), Int($0.row)) }.sorted { $0 < $1 }
        }
        func check(_ condition: Bool) throws {
            if !condition {
                throw FixtureError("\(member) \(values) does not apply to \(table.sections.count) sections")
            }
        }
        switch signal {
        case .sectionsInserted(_, _, let sections):
            for index in sections.map(Int.init).sorted() {
                try check(index >= 0 && index <= table.sections.count)
                table.sections.insert(Section(header: nil, footer: nil), at: index)
            }
        case .sectionsDeleted(_, _, let sections):
            for index in sections.map(Int.init).sorted().reversed() {
                try check(index >= 0 && index < table.sections.count)
                table.sections.remove(at: index)
            }
        case .sectionMoved(_, _, let from32, let to32):
            let (from, to) = (Int(from32), Int(to32))
            try check(from >= 0 && from < table.sections.count && to >= 0 && to < table.sections.count)
            table.sections.insert(table.sections.remove(at: from), at: to)
        case .sectionChanged(_, _, let section):
            let index = Int(section)
            try check(index >= 0 && index < table.sections.count)
            table.sections[index].header = nil
            table.sections[index].footer = nil
        case .rowsInserted(_, _, let paths):
            for (section, row) in sorted(paths) {
                try check(section >= 0 && section < table.sections.count)
                try check(row >= 0 && row <= table.sections[section].rows.count)
                table.sections[section].rows.insert(Row(id: nil, text: nil), at: row)
            }
        case .rowsDeleted(_, _, let paths):
            for (section, row) in sorted(paths).reversed() {
                try check(section >= 0 && section < table.sections.count)
                try check(row >= 0 && row < table.sections[section].rows.count)
                table.sections[section].rows.remove(at: row)
            }
        case .rowMoved(_, _, let from, let to):
            let (fs, fr, ts, tr) = (Int(from.section), Int(from.row), Int(to.section), Int(to.row))
            try check(fs >= 0 && fs < table.sections.count && ts >= 0 && ts < table.sections.count)
            try check(fr >= 0 && fr < table.sections[fs].rows.count)
            let row = table.sections[fs].rows.remove(at: fr)
            try check(tr >= 0 && tr <= table.sections[ts].rows.count)
            table.sections[ts].rows.insert(row, at: tr)
        case .rowsChanged(_, _, let paths):
            for (section, row) in sorted(paths) {
                try check(section >= 0 && section < table.sections.count)
                try check(row >= 0 && row < table.sections[section].rows.count)
                table.sections[section].rows[row].text = nil
            }
        case .tableAdded, .tableRemoved, .tableRenamed, .clipboardChanged:
            break
        }
        tables[name] = table
    }

    /// Compares the replica with the daemon's tables, learning what signals do not carry;
    /// returns the differences (empty when equal) and the ids learned.
    mutating func reconcile(with daemon: DaemonProcess) throws -> (differences: [String], learned: [UInt64]) {
        var differences: [String] = []
        var learned: [UInt64] = []
        let names = try daemon.tableNames()
        if names != byteSorted(tables.keys) {
            return (["tables: replica \(byteSorted(tables.keys)), daemon \(names)"], [])
        }
        for name in names {
            guard var table = tables[name] else { return (["table \(name): not in the replica"], []) }
            let sections = try daemon.sections(name)
            let revision = try daemon.revision(name)
            if revision != table.revision {
                differences.append("\(name): revision: replica \(table.revision), daemon \(revision)")
            }
            guard sections.count == table.sections.count else {
                differences.append("\(name): \(table.sections.count) sections, daemon \(sections.count)")
                continue
            }
            for (index, section) in sections.enumerated() {
                var mine = table.sections[index]
                if mine.header == nil { mine.header = section.header }
                if mine.footer == nil { mine.footer = section.footer }
                if mine.header != section.header || mine.footer != section.footer {
                    differences.append(
                        "\(name) §\(index): titles \(mine.header!)|\(mine.footer!), daemon \(section.header)|\(section.footer)"
                    )
                }
                let rows = try daemon.rows(name, Int32(index))
                guard rows.count == mine.rows.count else {
                    differences.append("\(name) §\(index): \(mine.rows.count) rows, daemon \(rows.count)")
                    continue
                }
                for (position, row) in rows.enumerated() {
                    if mine.rows[position].id == nil {
                        if !seenIDs.insert(row.id).inserted {
                            differences.append(
                                "\(name) \(index):\(position): inserted row has old id \(row.id)")
                        }
                        mine.rows[position].id = row.id
                        learned.append(row.id)
                    }
                    if mine.rows[position].text == nil { mine.rows[position].text = row.text }
                    if mine.rows[position].id != row.id || mine.rows[position].text != row.text {
                        differences.append(
                            "\(name) \(index):\(position): replica \(mine.rows[position]), daemon \(row)")
                    }
                }
                table.sections[index] = mine
            }
            tables[name] = table
        }
        return (differences, learned)
    }
}

/// Random operation sequences, valid and invalid mixed: after every call, a replica built from
/// the signals alone equals `GetSections` + `GetRows`, and revisions follow the contract.
@Suite(.serialized)
struct SignalReplicaTests {
    /// The members whose success changes a table's content (and so its revision by exactly 1).
    static let contentChanges: Set<String> = [
        "InsertSection", "DeleteSections", "MoveSection", "SetHeader", "SetFooter", "InsertRow", "InsertRows",
        "SetCell", "DeleteRow", "DeleteRows", "MoveRow", "ImportTable", "Cut", "Paste",
    ]

    static let names = ["alpha", "beta", "Gämma", "δ"]
    static let texts = [
        "", "one", "two words", "comma, separated", "tab\tseparated", "two\nlines", "## not a header", "日本語",
        "🙂 emoji", "0", "2", "2.5", "-3", "10", "007", "+4", "apple", "pineapple", "\\backslash",
        "\"quoted\"",
    ]
    static let actions = ["copy", "cut", "paste", "delete", "move", "edit", "insert"]

    struct Generator {
        var random: SeededRandom
        /// The tables as last compared: names and each section's row count.
        var shape: [String: [Int]] = [:]

        mutating func table() -> String {
            if random.percent(90), let name = shape.keys.sorted().randomElement(using: &random) {
                return name
            }
            return random.pick(SignalReplicaTests.names + ["missing", "", "a/b"])
        }

        mutating func existing(_ count: Int) -> Int32 {
            if count > 0 && random.percent(85) {
                return Int32(Int.random(in: -count..<count, using: &random))
            }
            return random.pick([Int32(count), Int32(-count - 1), Int32.min, Int32.max, Int32(count + 1)])
        }

        mutating func insertion(_ count: Int) -> Int32 {
            if random.percent(88) { return Int32(Int.random(in: -1...count, using: &random)) }
            return random.pick([Int32(count + 1), -2, Int32.min, Int32.max])
        }

        mutating func text() -> String { random.pick(SignalReplicaTests.texts) }

        /// A section index of `table` and its row count (0 when the index is bad).
        mutating func section(_ table: String) -> (Int32, Int) {
            let sections = shape[table] ?? []
            let index = existing(sections.count)
            let resolved = index < 0 ? Int(index) + sections.count : Int(index)
            return (index, resolved >= 0 && resolved < sections.count ? sections[resolved] : 0)
        }

        mutating func exchange() -> (String, String) {
            switch Int.random(in: 0..<4, using: &random) {
            case 0:
                var lines = random.percent(50) ? "\(text().filter { $0 != "\n" && $0 != "#" })\n" : ""
                for _ in 0..<Int.random(in: 0...2, using: &random) {
                    lines += "## \(random.pick(["H", "", "Kopf"]))\n"
                    for _ in 0..<Int.random(in: 0...3, using: &random) {
                        lines += text().filter { $0 != "\n" && $0 != "#" } + "\n"
                    }
                }
                return ("lines", lines)
            case 1:
                return (
                    "tsv",
                    "section\theader\tfooter\trow\ttext\n0\th\tf\t0\ta\\tb\n0\th\tf\t1\tc\n1\t\t\t\t\n2\tz\t\t0\t5\n"
                )
            case 2:
                return (
                    "json",
                    "{\"name\": \"x\", \"sections\": [{\"header\": \"J\", \"footer\": \"\", \"rows\": [{\"id\": 1, \"text\": \"j1\"}, {\"id\": 1, \"text\": \"3\"}]}]}"
                )
            default:
                return (
                    random.pick(["json", "tsv", "lines", "xml"]),
                    random.pick(["{", "section\tbad\n", "\u{1}"])
                )
            }
        }

        /// One random call: member and arguments.
        mutating func call() -> (String, [BusValue]) {
            let table = table()
            let sectionCount = shape[table]?.count ?? 0
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<4: return ("CreateTable", [s(random.pick(SignalReplicaTests.names + ["", "a/b"]))])
            case 4..<5: return ("DropTable", [s(table)])
            case 5..<7:
                return ("RenameTable", [s(table), s(random.pick(SignalReplicaTests.names + ["x/y"]))])
            case 7..<13:
                return (
                    "InsertSection",
                    [s(table), i(insertion(sectionCount)), s(random.pick(["", "H", "Kopf"])), s(text())]
                )
            case 13..<16:
                var indexes = (0..<Int.random(in: 0...2, using: &random)).map { _ in existing(sectionCount) }
                if random.percent(10), let first = indexes.first { indexes.append(first) }
                return ("DeleteSections", [s(table), ai(indexes)])
            case 16..<20:
                return ("MoveSection", [s(table), i(existing(sectionCount)), i(existing(sectionCount))])
            case 20..<24:
                return (
                    random.pick(["SetHeader", "SetFooter"]), [s(table), i(existing(sectionCount)), s(text())]
                )
            case 24..<36:
                let (section, rows) = section(table)
                return ("InsertRow", [s(table), i(section), i(insertion(rows)), s(text())])
            case 36..<42:
                let (section, rows) = section(table)
                let texts = (0..<Int.random(in: 0...4, using: &random)).map { _ in text() }
                return ("InsertRows", [s(table), i(section), i(insertion(rows)), strings(texts)])
            case 42..<48:
                let (section, rows) = section(table)
                return ("SetCell", [s(table), i(section), i(existing(rows)), s(text())])
            case 48..<53:
                let (section, rows) = section(table)
                return ("DeleteRow", [s(table), i(section), i(existing(rows))])
            case 53..<57:
                var paths: [(Int32, Int32)] = []
                for _ in 0..<Int.random(in: 0...3, using: &random) {
                    let (section, rows) = section(table)
                    paths.append((section, existing(rows)))
                }
                if random.percent(10), let first = paths.first { paths.append(first) }
                return ("DeleteRows", [s(table), ai(paths.map(\.0)), ai(paths.map(\.1))])
            case 57..<62:
                let op = random.pick([
                    "equals", "contains", "prefix", "suffix", "matches", ">", "<=", "!=", "like",
                ])
                let operand = random.pick(["2", "a", "apple", "^[0-9]+$", "(", "e$", "-3", ""])
                return ("DeleteWhere", [s(table), s(op), s(operand), b(random.percent(40))])
            case 62..<72:
                let (from, fromRows) = section(table)
                let (to, toRows) = section(table)
                return ("MoveRow", [s(table), i(from), i(existing(fromRows)), i(to), i(insertion(toRows))])
            case 72..<77:
                let (format, data) = exchange()
                let target = random.percent(20) ? random.pick(SignalReplicaTests.names) : table
                return ("ImportTable", [s(target), s(format), s(data), b(random.percent(30))])
            case 77..<80:
                var allowed = SignalReplicaTests.actions
                if random.percent(50) { allowed = allowed.filter { _ in random.percent(70) } }
                if random.percent(5) { allowed.append("fly") }
                return ("SetAllowedActions", [s(table), strings(allowed)])
            case 80..<81: return ("SetSecret", [s(table), b(random.percent(50))])
            case 81..<86:
                let (section, rows) = section(table)
                let action = random.pick(["delete", "delete", "copy", "cut", "paste", "move"])
                return ("PerformAction", [s(table), s(action), i(section), i(existing(rows))])
            case 86..<89:
                let (section, rows) = section(table)
                return (random.pick(["Cut", "Paste", "Copy"]), [s(table), i(section), i(insertion(rows))])
            case 89..<92:
                let (section, rows) = section(table)
                return ("GetCell", [s(table), i(section), i(existing(rows))])
            case 92..<93:
                return ("ExportTable", [s(table), s(random.pick(["json", "tsv", "lines", "yaml"]))])
            case 93..<95:
                // A table file (API version 4): the daemon makes the table equal to it.
                let options = BusValue.dictionary(
                    keySignature: "s", valueSignature: "v",
                    random.percent(20) ? [(s("dry_run"), .variant(b(true)))] : [])
                return ("ApplyTable", [s(table), s(document()), t(0), options])
            case 95..<96: return ("FindSection", [s(table), s(random.pick(["", "H", "Kopf", "J"]))])
            case 96..<98: return ("Locate", [t(UInt64.random(in: 0...300, using: &random))])
            default: return ("GetSections", [s(table)])
            }
        }
    }

    @Test(arguments: [1 as UInt64, 2, 3])
    func replicaFromSignalsEqualsTheDaemon(seed: UInt64) throws {
        let seed = SeededRandom.seed(for: "signal replica \(seed)", fixed: seed * 7919)
        let daemon = try DaemonProcess()
        let listener = try daemon.connect()
        try listener.addMatch(CliptabBus.signalRule)
        try listener.addMatch(propertiesChangedRule)
        var replica = SignalReplica()
        var generator = Generator(random: SeededRandom(seed: seed))
        var failures = 0
        for step in 0..<350 {
            let (member, arguments) = generator.call()
            let revisionsBefore = replica.tables.mapValues(\.revision)
            let namesBefore = byteSorted(replica.tables.keys)
            var reply: [BusValue]?
            var errorName: String?
            do {
                reply = try daemon.call(member, arguments)
            } catch let error as BusError {
                errorName = error.name
            }
            let context =
                "\(SeededRandom.replay(seed)) step \(step): \(member) \(arguments) -> \(errorName ?? "\(reply ?? [])")"
            if let errorName {
                #expect(errorName.hasPrefix(CliptabBus.errorPrefix), "\(context)")
            }
            let signals = try daemon.signals(on: listener)
            if errorName != nil {
                #expect(
                    signals.isEmpty, "\(context): a refused call emitted \(signals.map { $0.member ?? "" })")
            }
            replica.signalRevisions = [:]
            replica.tablesProperty = nil
            for signal in signals {
                do {
                    try replica.apply(signal)
                } catch {
                    Issue.record("\(context): \(error)")
                }
            }
            let (differences, learned) = try replica.reconcile(with: daemon)
            #expect(differences.isEmpty, "\(context): \(differences)")
            // Revisions: +1 for a content change (every signal of it carries the new one),
            // unchanged otherwise; a renamed table keeps its revision.
            let target: String
            if case .string(let name)? = arguments.first { target = name } else { target = "" }
            let isChange =
                errorName == nil
                && (Self.contentChanges.contains(member)
                    || (member == "DeleteWhere" && arguments[3] == b(false))
                    || (member == "PerformAction" && arguments[1] == s("delete"))
                    || (member == "ApplyTable" && Self.appliedContent(arguments, reply)))
            for (name, table) in replica.tables {
                var expected = revisionsBefore[name]
                if member == "RenameTable" && errorName == nil && arguments[1] == s(name) {
                    expected = revisionsBefore[target]
                }
                if let before = expected {
                    expected = before + (isChange && name == target ? 1 : 0)
                } else {
                    // A new table: created empty, or by its first import.
                    expected = member == "ImportTable" || member == "ApplyTable" ? 1 : 0
                }
                #expect(table.revision == expected, "\(context): revision of \(name)")
                if let carried = replica.signalRevisions[name] {
                    #expect(carried == [table.revision], "\(context): signals carried \(carried)")
                }
            }
            if !isChange {
                #expect(replica.signalRevisions.isEmpty, "\(context): \(replica.signalRevisions)")
            }
            // The ids an insert answers are the rows its signal inserted.
            if errorName == nil, member == "InsertRow" || member == "InsertRows" {
                let ids: [UInt64] =
                    member == "InsertRow"
                    ? [reply?.first].compactMap {
                        if case .uint64(let id)? = $0 { return id } else { return nil }
                    }
                    : ((reply?.first).map { value -> [UInt64] in
                        guard case .array(_, let items) = value else { return [] }
                        return items.compactMap {
                            if case .uint64(let id) = $0 { return id } else { return nil }
                        }
                    } ?? [])
                #expect(Set(ids) == Set(learned), "\(context): learned \(learned)")
            }
            // The Tables property follows the table names.
            let names = byteSorted(replica.tables.keys)
            if names != namesBefore {
                #expect(
                    replica.tablesProperty == names,
                    "\(context): Tables = \(String(describing: replica.tablesProperty))")
            } else {
                #expect(replica.tablesProperty == nil, "\(context)")
            }
            generator.shape = replica.tables.mapValues { $0.sections.map(\.rows.count) }
            if !differences.isEmpty {
                failures += 1
                // Start again from the daemon's state, so one bug does not hide the next.
                replica = SignalReplica()
                for name in try daemon.tableNames() {
                    let snapshot = try daemon.snapshot(name)
                    replica.tables[name] = SignalReplica.Table(
                        revision: snapshot.revision,
                        sections: snapshot.sections.map {
                            SignalReplica.Section(
                                header: $0.header, footer: $0.footer,
                                rows: $0.rows.map { SignalReplica.Row(id: $0.id, text: $0.text) })
                        })
                    for section in snapshot.sections { replica.seenIDs.formUnion(section.rows.map(\.id)) }
                }
                if failures > 5 { break }
            }
        }
    }
}
