// SPDX-License-Identifier: MIT
// The randomized model test of the table service, shared by CliptabCoreTests (over
// MemoryPersistence) and CliptabStoreTests (over SQLiteStore): that target compiles this
// very file through the symlink Tests/CliptabStoreTests/ModelHarness.swift. It holds no
// test functions, only the generator, the reference and the event replica.

import CliptabCore
import TestSupport

// SplitMix64 itself is in TestSupport, shared by every randomized test.
extension SplitMix64 {
    /// A number in `0..<bound` (`bound` > 0).
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    /// True with a probability of `percent` in a hundred.
    mutating func percent(_ percent: Int) -> Bool { below(100) < percent }

    /// One of `items` (not empty).
    mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
}

/// One call of the service, with its arguments.
enum ModelOperation {
    /// `createTable(name)`.
    case createTable(String)
    /// `dropTable(name)`.
    case dropTable(String)
    /// `renameTable(name, to:)`.
    case renameTable(String, String)
    /// `insertSection(table, at:, header:, footer:)`.
    case insertSection(String, Int32, String, String)
    /// `deleteSections(table, indexes)`.
    case deleteSections(String, [Int32])
    /// `moveSection(table, from:, to:)`.
    case moveSection(String, Int32, Int32)
    /// `setHeader(table, section:, text:)`.
    case setHeader(String, Int32, String)
    /// `setFooter(table, section:, text:)`.
    case setFooter(String, Int32, String)
    /// `findSection(table, header:)`.
    case findSection(String, String)
    /// `insertRows(table, section:, row:, texts:, as:)`, as `insert` or `paste`.
    case insertRows(String, Int32, Int32, [String], TableAction)
    /// `setCell(table, section:, row:, text:)`.
    case setCell(String, Int32, Int32, String)
    /// `deleteRows(table, sections:, rows:, as:)`, as `delete` or `cut`.
    case deleteRows(String, [Int32], [Int32], TableAction)
    /// `deleteWhere(table, op:, operand:, dryRun:)`.
    case deleteWhere(String, String, String, Bool)
    /// `moveRow(table, from:, to:)`.
    case moveRow(String, Int32, Int32, Int32, Int32)
    /// `setAllowedActions(table, names)`.
    case setAllowedActions(String, [String])
    /// `setSecret(table, flag)`.
    case setSecret(String, Bool)
    /// `importTable(table, format:, data:, replace:)` of a `lines` document whose intended
    /// sections are given alongside its text.
    case importLines(String, String, [ReferenceSection], String, Bool)
    /// `cell(of:section:row:)`.
    case readCell(String, Int32, Int32)
    /// `rows(of:section:offset:limit:)`.
    case readRows(String, Int32, UInt32, UInt32)
    /// `sections(of:)`.
    case readSections(String)
    /// `locate(id)`.
    case locate(UInt64)
    /// `actions(table, section:, row:)`.
    case actions(String, Int32, Int32)
    /// `canPerform(table, action:, section:, row:)`.
    case canPerform(String, String, Int32, Int32)
    /// `cellForCopy(of:section:row:as:)`, as `copy` or `cut`.
    case copy(String, Int32, Int32, TableAction)
    /// `sectionText(of:section:separator:)`.
    case copySection(String, Int32, String)
    /// `listTables()`.
    case listTables

    /// True for calls that may change something (and so may meet a failing commit).
    var mutates: Bool {
        switch self {
        case .readCell, .readRows, .readSections, .locate, .actions, .canPerform, .copy, .copySection,
            .listTables, .findSection:
            return false
        default:
            return true
        }
    }
}

/// What a call answered, in a form that compares.
enum Answer: Equatable {
    /// No value.
    case nothing
    /// A section index.
    case index(Int32)
    /// Row ids.
    case ids([UInt64])
    /// Index paths.
    case paths([IndexPath])
    /// A text.
    case text(String)
    /// Rows as (id, text).
    case rows([ReferenceRow])
    /// Sections as "header|footer|row count".
    case sections([String])
    /// A table and an index path.
    case location(String, IndexPath)
    /// A menu.
    case actions([TableAction])
    /// A yes or no.
    case flag(Bool)
    /// A copied text, its row id (0 for a section) and the secret flag.
    case copied(String, UInt64, Bool)
    /// Table names.
    case names([String])
    /// A number of rows.
    case count(UInt32)
}

/// A call's result: an answer, or the code of the error it threw.
enum Outcome: Equatable {
    /// The call succeeded with this answer.
    case answer(Answer)
    /// The call threw an error of this kind.
    case error(CliptabError.Code)
}

/// A row of the reference: id and text.
struct ReferenceRow: Equatable {
    /// The row id (0 until the service has told it).
    var id: UInt64
    /// The cell text.
    var text: String
}

/// A section of the reference.
struct ReferenceSection: Equatable {
    /// The header title.
    var header = ""
    /// The footer title.
    var footer = ""
    /// The rows in order.
    var rows: [ReferenceRow] = []
}

/// A table of the reference.
struct ReferenceTable: Equatable {
    /// The sections in order; a new table has one empty section.
    var sections = [ReferenceSection()]
    /// +1 for every successful change of content.
    var revision: UInt64 = 0
    /// The allowed actions.
    var allowed = Set(TableAction.allCases)
    /// The secret flag.
    var isSecret = false

    /// The number of rows in all sections.
    var rowCount: Int { sections.reduce(0) { $0 + $1.rows.count } }
}

/// The contract written as plainly as possible.
///
/// Arrays of arrays, linear searches, no keys, no chunks, no planning. Its checks come in
/// the service's order, since the contract does not say which of two wrongs of one call is
/// reported.
struct ReferenceModel {
    /// The tables by name.
    var tables: [String: ReferenceTable] = [:]
    /// The limits the service runs with.
    let limits: Limits

    private struct Refusal: Error {
        let code: CliptabError.Code
        init(_ code: CliptabError.Code) { self.code = code }
    }

    /// Makes an empty reference with `limits`.
    init(limits: Limits) { self.limits = limits }

    /// What `operation` should answer, the state it should leave, and whether it commits a
    /// change; `service` is the service's answer, from which the ids of new rows are taken.
    func predict(_ operation: ModelOperation, service: Answer?) -> (Outcome, ReferenceModel, commits: Bool) {
        var next = self
        do {
            let (answer, commits) = try next.run(operation, service)
            return (.answer(answer), next, commits)
        } catch {
            return (.error(error.code), self, false)
        }
    }

    /// True for 1…255 bytes without control characters and "/".
    static func isValidName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        if bytes.isEmpty || bytes.count > 255 { return false }
        return !name.unicodeScalars.contains {
            $0 == "/" || $0.value < 0x20 || (0x7F...0x9F).contains($0.value)
        }
    }

    /// `-1` is the last, and so on.
    private static func existing(_ index: Int32, _ count: Int) throws(Refusal) -> Int {
        let position = index < 0 ? Int(index) + count : Int(index)
        guard position >= 0 && position < count else { throw Refusal(.indexOutOfRange) }
        return position
    }

    /// `0…count`, or `-1` for the end.
    private static func insertion(_ index: Int32, _ count: Int) throws(Refusal) -> Int {
        if index == -1 { return count }
        guard index >= 0 && Int(index) <= count else { throw Refusal(.indexOutOfRange) }
        return Int(index)
    }

    private func table(_ name: String) throws(Refusal) -> ReferenceTable {
        guard let table = tables[name] else { throw Refusal(.noSuchTable) }
        return table
    }

    private func table(_ name: String, permitting action: TableAction) throws(Refusal) -> ReferenceTable {
        let table = try table(name)
        guard table.allowed.contains(action) else { throw Refusal(.notPermitted) }
        return table
    }

    private func checkCell(_ text: String) throws(Refusal) {
        if text.utf8.count > limits.maxCellBytes { throw Refusal(.limitExceeded) }
        if text.utf8.contains(0) { throw Refusal(.invalidArgument) }
    }

    /// A decimal number as the contract defines it (sign, digits, optional fraction); the
    /// generator only makes plain ones, so a Double holds them exactly enough.
    private static func decimal(_ text: String) -> Double? {
        var rest = Substring(text)
        if rest.first == "-" { rest = rest.dropFirst() }
        let parts = rest.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) }),
            parts.allSatisfy({ $0.allSatisfy(\.isNumber) })
        else { return nil }
        return Double(text)
    }

    private static func contains(_ text: [UInt8], _ needle: [UInt8]) -> Bool {
        if needle.isEmpty { return true }
        if needle.count > text.count { return false }
        for start in 0...(text.count - needle.count) where Array(text[start..<start + needle.count]) == needle
        {
            return true
        }
        return false
    }

    /// The row test of `DeleteWhere`.
    ///
    /// The generator makes only literal alphanumeric patterns (for which an extended regular
    /// expression is a substring search) and the one bad pattern "a(".
    private static func predicate(_ op: String, _ operand: String) throws(Refusal) -> (String) -> Bool {
        let needle = Array(operand.utf8)
        switch op {
        case "equals": return { Array($0.utf8) == needle }
        case "contains": return { contains(Array($0.utf8), needle) }
        case "prefix": return { Array($0.utf8).starts(with: needle) }
        case "suffix": return { Array($0.utf8).reversed().starts(with: needle.reversed()) }
        case "matches":
            if operand.contains("(") && !operand.contains(")") { throw Refusal(.invalidArgument) }
            return { contains(Array($0.utf8), needle) }
        case ">", ">=", "<", "<=", "==", "!=":
            guard let limit = decimal(operand) else { throw Refusal(.invalidArgument) }
            let compare: (Double, Double) -> Bool =
                switch op {
                case ">": (>)
                case ">=": (>=)
                case "<": (<)
                case "<=": (<=)
                case "==": (==)
                default: (!=)
                }
            return { text in decimal(text).map { compare($0, limit) } ?? false }
        default:
            throw Refusal(.invalidArgument)
        }
    }

    private mutating func run(_ operation: ModelOperation, _ service: Answer?) throws(Refusal) -> (
        Answer, Bool
    ) {
        switch operation {
        case .createTable(let name):
            guard Self.isValidName(name) else { throw Refusal(.invalidName) }
            guard tables[name] == nil else { throw Refusal(.tableExists) }
            tables[name] = ReferenceTable()
            return (.nothing, true)

        case .dropTable(let name):
            _ = try table(name)
            tables[name] = nil
            return (.nothing, true)

        case .renameTable(let name, let newName):
            let table = try table(name)
            guard Self.isValidName(newName) else { throw Refusal(.invalidName) }
            if newName == name { return (.nothing, false) }
            guard tables[newName] == nil else { throw Refusal(.tableExists) }
            tables[name] = nil
            tables[newName] = table
            return (.nothing, true)

        case .insertSection(let name, let index, let header, let footer):
            var table = try table(name, permitting: .insert)
            try checkCell(header)
            try checkCell(footer)
            let position = try Self.insertion(index, table.sections.count)
            guard table.sections.count + 1 <= limits.maxSectionsPerTable else {
                throw Refusal(.limitExceeded)
            }
            table.sections.insert(ReferenceSection(header: header, footer: footer), at: position)
            table.revision += 1
            tables[name] = table
            return (.index(Int32(position)), true)

        case .deleteSections(let name, let indexes):
            var table = try table(name, permitting: .delete)
            var chosen: [Int] = []
            for index in indexes {
                let position = try Self.existing(index, table.sections.count)
                guard !chosen.contains(position) else { throw Refusal(.invalidArgument) }
                chosen.append(position)
            }
            table.sections = table.sections.enumerated().filter { !chosen.contains($0.offset) }.map(\.element)
            table.revision += 1
            tables[name] = table
            return (.nothing, true)

        case .moveSection(let name, let from, let to):
            var table = try table(name, permitting: .move)
            let source = try Self.existing(from, table.sections.count)
            let target = try Self.existing(to, table.sections.count)
            let section = table.sections.remove(at: source)
            table.sections.insert(section, at: target)
            table.revision += 1
            tables[name] = table
            return (.nothing, true)

        case .setHeader(let name, let section, let text), .setFooter(let name, let section, let text):
            var table = try table(name, permitting: .edit)
            let position = try Self.existing(section, table.sections.count)
            if case .setHeader = operation {
                table.sections[position].header = text
            } else {
                table.sections[position].footer = text
            }
            try checkCell(table.sections[position].header)
            try checkCell(table.sections[position].footer)
            table.revision += 1
            tables[name] = table
            return (.nothing, true)

        case .findSection(let name, let header):
            let table = try table(name)
            guard
                let index = table.sections.firstIndex(where: { Array($0.header.utf8) == Array(header.utf8) })
            else { throw Refusal(.noSuchSection) }
            return (.index(Int32(index)), false)

        case .insertRows(let name, let section, let row, let texts, let action):
            var table = try table(name, permitting: action)
            let s = try Self.existing(section, table.sections.count)
            let r = try Self.insertion(row, table.sections[s].rows.count)
            for text in texts { try checkCell(text) }
            guard table.rowCount + texts.count <= limits.maxRowsPerTable else {
                throw Refusal(.limitExceeded)
            }
            var ids = [UInt64](repeating: 0, count: texts.count)
            if case .ids(let given) = service, given.count == texts.count { ids = given }
            let rows = zip(ids, texts).map { ReferenceRow(id: $0, text: $1) }
            table.sections[s].rows.insert(contentsOf: rows, at: r)
            table.revision += 1
            tables[name] = table
            return (.ids(ids), true)

        case .setCell(let name, let section, let row, let text):
            var table = try table(name, permitting: .edit)
            let s = try Self.existing(section, table.sections.count)
            let r = try Self.existing(row, table.sections[s].rows.count)
            try checkCell(text)
            table.sections[s].rows[r].text = text
            table.revision += 1
            tables[name] = table
            return (.nothing, true)

        case .deleteRows(let name, let sections, let rows, let action):
            var table = try table(name, permitting: action)
            guard sections.count == rows.count else { throw Refusal(.invalidArgument) }
            var chosen: [IndexPath] = []
            for (section, row) in zip(sections, rows) {
                let s = try Self.existing(section, table.sections.count)
                let r = try Self.existing(row, table.sections[s].rows.count)
                let path = IndexPath(section: Int32(s), row: Int32(r))
                guard !chosen.contains(path) else { throw Refusal(.invalidArgument) }
                chosen.append(path)
            }
            table.remove(chosen)
            table.revision += 1
            tables[name] = table
            return (.nothing, true)

        case .deleteWhere(let name, let op, let operand, let dryRun):
            var table = try table(name, permitting: .delete)
            let test = try Self.predicate(op, operand)
            var paths: [IndexPath] = []
            for (s, section) in table.sections.enumerated() {
                for (r, row) in section.rows.enumerated() where test(row.text) {
                    paths.append(IndexPath(section: Int32(s), row: Int32(r)))
                }
            }
            if dryRun { return (.paths(paths), false) }
            table.remove(paths)
            table.revision += 1
            tables[name] = table
            return (.paths(paths), true)

        case .moveRow(let name, let fromSection, let fromRow, let toSection, let toRow):
            var table = try table(name, permitting: .move)
            let fs = try Self.existing(fromSection, table.sections.count)
            let fr = try Self.existing(fromRow, table.sections[fs].rows.count)
            let ts = try Self.existing(toSection, table.sections.count)
            let row = table.sections[fs].rows.remove(at: fr)
            let tr = try Self.insertion(toRow, table.sections[ts].rows.count)
            table.sections[ts].rows.insert(row, at: tr)
            table.revision += 1
            tables[name] = table
            return (.nothing, true)

        case .setAllowedActions(let name, let names):
            var table = try table(name)
            var allowed = Set<TableAction>()
            for action in names {
                guard let parsed = TableAction(rawValue: action) else { throw Refusal(.invalidArgument) }
                allowed.insert(parsed)
            }
            table.allowed = allowed
            tables[name] = table
            return (.nothing, true)

        case .setSecret(let name, let isSecret):
            var table = try table(name)
            table.isSecret = isSecret
            tables[name] = table
            return (.nothing, true)

        case .importLines(let name, let format, let imported, _, let replace):
            guard ["json", "tsv", "lines"].contains(format) else { throw Refusal(.invalidArgument) }
            var table: ReferenceTable
            if let existing = tables[name] {
                guard existing.allowed.contains(.insert) else { throw Refusal(.notPermitted) }
                table = existing
            } else {
                guard Self.isValidName(name) else { throw Refusal(.invalidName) }
                table = ReferenceTable(sections: [])
            }
            for section in imported {
                try checkCell(section.header)
                try checkCell(section.footer)
                for row in section.rows { try checkCell(row.text) }
            }
            if replace { table.sections = [] }
            let added = imported.reduce(0) { $0 + $1.rows.count }
            guard table.rowCount + added <= limits.maxRowsPerTable else { throw Refusal(.limitExceeded) }
            guard table.sections.count + imported.count <= limits.maxSectionsPerTable else {
                throw Refusal(.limitExceeded)
            }
            table.sections += imported
            table.revision += 1
            tables[name] = table
            return (.count(UInt32(added)), true)

        case .readCell(let name, let section, let row):
            let table = try table(name)
            let s = try Self.existing(section, table.sections.count)
            let r = try Self.existing(row, table.sections[s].rows.count)
            return (.text(table.sections[s].rows[r].text), false)

        case .readRows(let name, let section, let offset, let limit):
            let table = try table(name)
            let rows = table.sections[try Self.existing(section, table.sections.count)].rows
            let start = min(Int(offset), rows.count)
            let end = limit == 0 ? rows.count : min(rows.count, start + Int(limit))
            return (.rows(Array(rows[start..<end])), false)

        case .readSections(let name):
            let table = try table(name)
            return (.sections(table.sections.map { "\($0.header)|\($0.footer)|\($0.rows.count)" }), false)

        case .locate(let id):
            for (name, table) in tables {
                for (s, section) in table.sections.enumerated() {
                    if let r = section.rows.firstIndex(where: { $0.id == id }) {
                        return (.location(name, IndexPath(section: Int32(s), row: Int32(r))), false)
                    }
                }
            }
            throw Refusal(.noSuchRow)

        case .actions(let name, let section, let row):
            let table = try table(name)
            let s = try Self.existing(section, table.sections.count)
            _ = try Self.existing(row, table.sections[s].rows.count)
            return (.actions(TableAction.allCases.filter(table.allowed.contains)), false)

        case .canPerform(let name, let action, let section, let row):
            guard let parsed = TableAction(rawValue: action) else { throw Refusal(.invalidArgument) }
            let table = try table(name)
            let s = try Self.existing(section, table.sections.count)
            _ = try Self.existing(row, table.sections[s].rows.count)
            return (.flag(table.allowed.contains(parsed)), false)

        case .copy(let name, let section, let row, let action):
            let table = try table(name, permitting: action)
            let s = try Self.existing(section, table.sections.count)
            let r = try Self.existing(row, table.sections[s].rows.count)
            let cell = table.sections[s].rows[r]
            return (.copied(cell.text, cell.id, table.isSecret), false)

        case .copySection(let name, let section, let separator):
            let table = try table(name, permitting: .copy)
            let s = try Self.existing(section, table.sections.count)
            let text = table.sections[s].rows.map(\.text).joined(separator: separator)
            if text.utf8.count > limits.maxCellBytes { throw Refusal(.limitExceeded) }
            return (.copied(text, 0, table.isSecret), false)

        case .listTables:
            return (.names(tables.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }), false)
        }
    }
}

extension ReferenceTable {
    /// Removes the rows at `paths` (valid, distinct; indexes from before the removal).
    mutating func remove(_ paths: [IndexPath]) {
        for s in sections.indices {
            let doomed = Set(paths.filter { Int($0.section) == s }.map { Int($0.row) })
            sections[s].rows = sections[s].rows.enumerated().filter { !doomed.contains($0.offset) }.map(
                \.element)
        }
    }
}

/// How a run reaches its persistence: make the next commit fail, take that back, and count
/// the committed batches (nil when the persistence does not count).
struct FaultHooks {
    /// Makes the next commit fail.
    var arm: () -> Void
    /// Cancels a failure that no commit consumed.
    var disarm: () -> Void
    /// The number of committed batches so far, if known.
    var commits: () -> Int?

    /// The hooks of a `MemoryPersistence`.
    static func memory(_ persistence: MemoryPersistence) -> FaultHooks {
        FaultHooks(
            arm: { persistence.failNextCommit = CliptabError(.storageFailure, "injected commit failure") },
            disarm: { persistence.failNextCommit = nil },
            commits: { persistence.committed.count })
    }
}

/// A client's copy of a table's structure kept only from events, as UIKit keeps its view:
/// ids and texts it cannot know from an event stay nil until filled from the service.
struct ReplicaSection: Equatable {
    /// The section's id, once known.
    var id: UInt64?
    /// The titles, once known (nil after a `SectionChanged`).
    var titles: String?
    /// Each row's id and text, once known.
    var rows: [ReplicaRow]
}

/// A row of the replica.
struct ReplicaRow: Equatable {
    /// The row id, once known.
    var id: UInt64?
    /// The text, once known (nil after a `RowsChanged`).
    var text: String?
}

/// One randomized sequence: random calls on the service and the reference, compared after
/// every step; the service's events replayed onto a replica, compared too.
final class ModelRun {
    /// The seed that replays this run.
    let seed: UInt64
    /// The service under test.
    private(set) var service: TableService
    private var hooks: FaultHooks
    private var rng: SplitMix64
    private var reference: ReferenceModel
    private var replica: [String: [ReplicaSection]] = [:]
    private var issued = Set<UInt64>()
    private var issuedList: [UInt64] = []
    private var events: [TableEvent] = []
    private var steps = 0
    /// Every "call:outcome" seen so far ("insertRows:ok", "moveRow:IndexOutOfRange"), to
    /// show that the generator reaches every kind of call and error.
    private(set) var coverage = Set<String>()
    private let failurePercent: Int

    /// Starts a run of `seed` over `service` (with an empty catalog) and its `hooks`.
    init(seed: UInt64, service: TableService, hooks: FaultHooks, failurePercent: Int = 4) {
        self.seed = seed
        self.service = service
        self.hooks = hooks
        self.failurePercent = failurePercent
        rng = SplitMix64(seed: seed)
        reference = ReferenceModel(limits: service.limits)
        attach(service, hooks: hooks)
    }

    /// Continues the run on another service (a reopened store) holding the same state.
    func attach(_ service: TableService, hooks: FaultHooks) {
        self.service = service
        self.hooks = hooks
        service.onEvent = { [unowned self] event in self.events.append(event) }
    }

    /// Lets go of the service and its persistence (so a store can close).
    func detach() {
        attach(
            TableService(catalog: Catalog(), persistence: MemoryPersistence()),
            hooks: .memory(MemoryPersistence()))
    }

    /// Runs `count` random steps; nil, or a description of the first disagreement with the
    /// seed and step that reproduce it.
    func run(steps count: Int) -> String? {
        for _ in 0..<count {
            let operation = nextOperation()
            steps += 1
            if let problem = check(operation) {
                return "seed 0x\(String(seed, radix: 16)), step \(steps), \(operation): \(problem)"
            }
        }
        return nil
    }

    // MARK: - One step

    private func check(_ operation: ModelOperation) -> String? {
        let before = service.catalog
        let commitsBefore = hooks.commits()
        let inject = operation.mutates && rng.percent(failurePercent)
        if inject { hooks.arm() }
        events = []
        let actual: Outcome
        var message = ""
        do {
            actual = .answer(try Self.perform(operation, on: service))
        } catch let error as CliptabError {
            actual = .error(error.code)
            message = error.message
        } catch {
            hooks.disarm()
            return "threw a foreign error \(error)"
        }
        hooks.disarm()
        let kind = String("\(operation)".prefix { $0 != "(" })
        switch actual {
        case .answer: coverage.insert(kind + ":ok")
        case .error(let code): coverage.insert(kind + ":" + code.rawValue)
        }
        var serviceAnswer: Answer?
        if case .answer(let answer) = actual { serviceAnswer = answer }
        var (expected, next, commits) = reference.predict(operation, service: serviceAnswer)
        if inject && commits, case .answer = expected {
            (expected, next, commits) = (.error(.storageFailure), reference, false)
        }
        if actual != expected { return "expected \(expected), got \(actual) \(message)" }
        if case .error = actual {
            if service.catalog != before { return "a failed call changed the catalog" }
            if !events.isEmpty { return "a failed call sent events \(events)" }
        }
        if let old = commitsBefore, let new = hooks.commits(), new - old != (commits ? 1 : 0) {
            return "\(new - old) batches committed, expected \(commits ? 1 : 0)"
        }
        reference = next
        fillIDs()
        if let problem = compareReference() { return problem }
        if let problem = checkInvariants(before: before) { return problem }
        // TableAdded always means a table with one empty section: an import that creates
        // its table follows it with SectionsDeleted([0]), so the replica needs no hint.
        if let problem = replay(events, creatingByImport: false, before: before) { return problem }
        return nil
    }

    /// Performs `operation` on `service`.
    static func perform(_ operation: ModelOperation, on service: TableService) throws -> Answer {
        switch operation {
        case .createTable(let name):
            try service.createTable(name)
        case .dropTable(let name):
            try service.dropTable(name)
        case .renameTable(let name, let newName):
            try service.renameTable(name, to: newName)
        case .insertSection(let name, let index, let header, let footer):
            return .index(try service.insertSection(name, at: index, header: header, footer: footer))
        case .deleteSections(let name, let indexes):
            try service.deleteSections(name, indexes)
        case .moveSection(let name, let from, let to):
            try service.moveSection(name, from: from, to: to)
        case .setHeader(let name, let section, let text):
            try service.setHeader(name, section: section, text: text)
        case .setFooter(let name, let section, let text):
            try service.setFooter(name, section: section, text: text)
        case .findSection(let name, let header):
            return .index(try service.findSection(name, header: header))
        case .insertRows(let name, let section, let row, let texts, let action):
            return .ids(try service.insertRows(name, section: section, row: row, texts: texts, as: action))
        case .setCell(let name, let section, let row, let text):
            try service.setCell(name, section: section, row: row, text: text)
        case .deleteRows(let name, let sections, let rows, let action):
            try service.deleteRows(name, sections: sections, rows: rows, as: action)
        case .deleteWhere(let name, let op, let operand, let dryRun):
            return .paths(try service.deleteWhere(name, op: op, operand: operand, dryRun: dryRun))
        case .moveRow(let name, let fromSection, let fromRow, let toSection, let toRow):
            try service.moveRow(name, from: (fromSection, fromRow), to: (toSection, toRow))
        case .setAllowedActions(let name, let actions):
            try service.setAllowedActions(name, actions)
        case .setSecret(let name, let isSecret):
            try service.setSecret(name, isSecret)
        case .importLines(let name, let format, _, let data, let replace):
            return .count(try service.importTable(name, format: format, data: data, replace: replace))
        case .readCell(let name, let section, let row):
            return .text(try service.cell(of: name, section: section, row: row))
        case .readRows(let name, let section, let offset, let limit):
            let rows = try service.rows(of: name, section: section, offset: offset, limit: limit)
            return .rows(rows.map { ReferenceRow(id: $0.id, text: $0.text) })
        case .readSections(let name):
            return .sections(try service.sections(of: name).map { "\($0.header)|\($0.footer)|\($0.rows)" })
        case .locate(let id):
            let found = try service.locate(id)
            return .location(found.table, found.path)
        case .actions(let name, let section, let row):
            return .actions(try service.actions(name, section: section, row: row))
        case .canPerform(let name, let action, let section, let row):
            return .flag(try service.canPerform(name, action: action, section: section, row: row))
        case .copy(let name, let section, let row, let action):
            let copied = try service.cellForCopy(of: name, section: section, row: row, as: action)
            return .copied(copied.text, copied.id, copied.isSecret)
        case .copySection(let name, let section, let separator):
            let copied = try service.sectionText(of: name, section: section, separator: separator)
            return .copied(copied.text, 0, copied.isSecret)
        case .listTables:
            return .names(service.listTables())
        }
        return .nothing
    }

    // MARK: - Comparisons

    /// Rows the reference made without knowing their ids (imports) take the service's ids at
    /// the same place; a wrong place shows up in the comparison that follows.
    private func fillIDs() {
        for (name, table) in reference.tables {
            guard let actual = service.catalog.tables[name] else { continue }
            var filled = table
            for s in filled.sections.indices where s < actual.sections.count {
                let rows = actual.sections[s].rows
                for r in filled.sections[s].rows.indices
                where filled.sections[s].rows[r].id == 0 && r < rows.count {
                    filled.sections[s].rows[r].id = rows[r].id
                }
            }
            reference.tables[name] = filled
        }
    }

    private func compareReference() -> String? {
        let catalog = service.catalog
        let names = Set(catalog.tables.keys)
        if names != Set(reference.tables.keys) {
            return "tables \(names.sorted()), expected \(reference.tables.keys.sorted())"
        }
        for (name, expected) in reference.tables {
            let table = catalog.tables[name]!
            if table.record.revision != expected.revision {
                return "\(name): revision \(table.record.revision), expected \(expected.revision)"
            }
            if table.record.allowedActions.actions != TableAction.allCases.filter(expected.allowed.contains) {
                return "\(name): allowed \(table.record.allowedActions.actions), expected \(expected.allowed)"
            }
            if table.record.isSecret != expected.isSecret { return "\(name): secret flag differs" }
            let sections = table.sections.map { section in
                ReferenceSection(
                    header: section.header, footer: section.footer,
                    rows: section.rows.map { ReferenceRow(id: $0.id, text: $0.text) })
            }
            if sections.count != expected.sections.count {
                return "\(name): \(sections.count) sections, expected \(expected.sections.count)"
            }
            for (s, (actual, wanted)) in zip(sections, expected.sections).enumerated() where actual != wanted
            {
                if (actual.header, actual.footer) != (wanted.header, wanted.footer) {
                    return
                        "\(name) section \(s): titles \(actual.header)|\(actual.footer), expected \(wanted.header)|\(wanted.footer)"
                }
                return
                    "\(name) section \(s): rows\n  \(actual.rows.map { "\($0.id):\($0.text)" })\nexpected\n  \(wanted.rows.map { "\($0.id):\($0.text)" })"
            }
        }
        return nil
    }

    private func checkInvariants(before: Catalog) -> String? {
        let catalog = service.catalog
        var rowIDs = Set<UInt64>()
        var sectionIDs = Set<UInt64>()
        var tableIDs = Set<UInt64>()
        for table in catalog.tables.values {
            if !tableIDs.insert(table.record.id).inserted { return "table id \(table.record.id) twice" }
            if zip(table.sections, table.sections.dropFirst()).contains(where: { $0.key >= $1.key }) {
                return "\(table.name): section keys not ascending: \(table.sections.map(\.key))"
            }
            for section in table.sections {
                if !sectionIDs.insert(section.id).inserted { return "section id \(section.id) twice" }
                let keys = section.rows.map(\.key)
                if zip(keys, keys.dropFirst()).contains(where: { $0 >= $1 }) {
                    return "\(table.name): row keys not ascending: \(keys)"
                }
                for row in section.rows where !rowIDs.insert(row.id).inserted {
                    return "row id \(row.id) twice"
                }
            }
        }
        let counters = catalog.counters
        if let top = rowIDs.max(), top >= counters.nextRowID { return "row id \(top) not below the counter" }
        if let top = sectionIDs.max(), top >= counters.nextSectionID {
            return "section id \(top) not below the counter"
        }
        if let top = tableIDs.max(), top >= counters.nextTableID {
            return "table id \(top) not below the counter"
        }
        var old = Set<UInt64>()
        for table in before.tables.values {
            for section in table.sections { for row in section.rows { old.insert(row.id) } }
        }
        for id in rowIDs where !old.contains(id) {
            if id == 0 || !issued.insert(id).inserted { return "row id \(id) given again" }
            issuedList.append(id)
        }
        return nil
    }

    // MARK: - The replica

    private func replay(_ events: [TableEvent], creatingByImport: Bool, before: Catalog) -> String? {
        let catalog = service.catalog
        var revisions: [String: [UInt64]] = [:]
        for event in events {
            switch event {
            case .tableAdded(let name):
                if replica[name] != nil { return "TableAdded of existing \(name)" }
                replica[name] = creatingByImport ? [] : [ReplicaSection(id: nil, titles: nil, rows: [])]
            case .tableRemoved(let name):
                if replica.removeValue(forKey: name) == nil { return "TableRemoved of unknown \(name)" }
            case .tableRenamed(let from, let to):
                guard let table = replica.removeValue(forKey: from), replica[to] == nil else {
                    return "bad TableRenamed \(from) -> \(to)"
                }
                replica[to] = table
            default:
                guard let (name, revision) = Self.tableAndRevision(event), var sections = replica[name] else {
                    return "event \(event) for a table the replica does not have"
                }
                revisions[name, default: []].append(revision)
                if let problem = Self.apply(event, to: &sections) { return "\(event): \(problem)" }
                replica[name] = sections
            }
        }
        for (name, list) in revisions {
            let revision = catalog.tables[name]?.record.revision
            if list.contains(where: { $0 != revision }) { return "events of \(name) carry revisions \(list)" }
        }
        var oldRevisions: [UInt64: UInt64] = [:]
        for table in before.tables.values { oldRevisions[table.record.id] = table.record.revision }
        for (name, table) in catalog.tables {
            let changed = table.record.revision != oldRevisions[table.record.id] ?? 0
            if changed != (revisions[name] != nil) {
                return "\(name): revision \(table.record.revision) but events \(revisions[name] ?? [])"
            }
        }
        return fillReplica()
    }

    private static func tableAndRevision(_ event: TableEvent) -> (String, UInt64)? {
        switch event {
        case .sectionsInserted(let table, let revision, _), .sectionsDeleted(let table, let revision, _),
            .sectionMoved(let table, let revision, _, _), .sectionChanged(let table, let revision, _),
            .rowsInserted(let table, let revision, _), .rowsDeleted(let table, let revision, _),
            .rowMoved(let table, let revision, _, _), .rowsChanged(let table, let revision, _):
            return (table, revision)
        case .tableAdded, .tableRemoved, .tableRenamed:
            return nil
        }
    }

    private static func ascending<T: Comparable>(_ items: [T]) -> Bool {
        !zip(items, items.dropFirst()).contains { $0 >= $1 }
    }

    /// Applies one section or row event to the replica's sections; nil, or what is wrong.
    private static func apply(_ event: TableEvent, to sections: inout [ReplicaSection]) -> String? {
        func valid(_ path: IndexPath) -> Bool {
            path.section >= 0 && Int(path.section) < sections.count && path.row >= 0
                && Int(path.row) < sections[Int(path.section)].rows.count
        }
        switch event {
        case .sectionsInserted(_, _, let indexes):
            guard ascending(indexes) else { return "indexes not ascending" }
            for index in indexes {
                guard index >= 0 && Int(index) <= sections.count else { return "index \(index) out of range" }
                sections.insert(ReplicaSection(id: nil, titles: nil, rows: []), at: Int(index))
            }
        case .sectionsDeleted(_, _, let indexes):
            guard ascending(indexes), indexes.allSatisfy({ $0 >= 0 && Int($0) < sections.count }) else {
                return "bad indexes for \(sections.count) sections"
            }
            for index in indexes.reversed() { sections.remove(at: Int(index)) }
        case .sectionMoved(_, _, let from, let to):
            guard from >= 0 && Int(from) < sections.count && to >= 0 && Int(to) < sections.count else {
                return "out of range for \(sections.count) sections"
            }
            sections.insert(sections.remove(at: Int(from)), at: Int(to))
        case .sectionChanged(_, _, let index):
            guard index >= 0 && Int(index) < sections.count else { return "out of range" }
            sections[Int(index)].titles = nil
        case .rowsInserted(_, _, let paths):
            guard ascending(paths) else { return "paths not ascending" }
            for path in paths {
                guard
                    path.section >= 0 && Int(path.section) < sections.count && path.row >= 0
                        && Int(path.row) <= sections[Int(path.section)].rows.count
                else { return "path \(path) out of range" }
                sections[Int(path.section)].rows.insert(ReplicaRow(id: nil, text: nil), at: Int(path.row))
            }
        case .rowsDeleted(_, _, let paths):
            guard ascending(paths), paths.allSatisfy(valid) else { return "bad paths" }
            for path in paths.reversed() { sections[Int(path.section)].rows.remove(at: Int(path.row)) }
        case .rowMoved(_, _, let from, let to):
            guard valid(from) else { return "source out of range" }
            let row = sections[Int(from.section)].rows.remove(at: Int(from.row))
            guard
                to.section >= 0 && Int(to.section) < sections.count && to.row >= 0
                    && Int(to.row) <= sections[Int(to.section)].rows.count
            else { return "destination out of range" }
            sections[Int(to.section)].rows.insert(row, at: Int(to.row))
        case .rowsChanged(_, _, let paths):
            guard paths.allSatisfy(valid) else { return "bad paths" }
            for path in paths { sections[Int(path.section)].rows[Int(path.row)].text = nil }
        case .tableAdded, .tableRemoved, .tableRenamed:
            return "not a section or row event"
        }
        return nil
    }

    /// Fills what the replica could not know from the service, and checks that everything it
    /// did know agrees.
    private func fillReplica() -> String? {
        let catalog = service.catalog
        if Set(replica.keys) != Set(catalog.tables.keys) {
            return "replica has tables \(replica.keys.sorted()), service \(catalog.tables.keys.sorted())"
        }
        for (name, table) in catalog.tables {
            var sections = replica[name]!
            guard sections.count == table.sections.count else {
                return "replica of \(name) has \(sections.count) sections, service \(table.sections.count)"
            }
            for (s, actual) in table.sections.enumerated() {
                let titles = actual.header + "\u{0}" + actual.footer
                if sections[s].id == nil { sections[s].id = actual.id }
                if sections[s].titles == nil { sections[s].titles = titles }
                guard sections[s].id == actual.id, sections[s].titles == titles,
                    sections[s].rows.count == actual.rows.count
                else { return "replica of \(name) section \(s) disagrees" }
                for (r, row) in actual.rows.enumerated() {
                    if sections[s].rows[r].id == nil { sections[s].rows[r].id = row.id }
                    if sections[s].rows[r].text == nil { sections[s].rows[r].text = row.text }
                    if sections[s].rows[r] != ReplicaRow(id: row.id, text: row.text) {
                        return "replica of \(name) row \(s):\(r) is \(sections[s].rows[r]), service \(row)"
                    }
                }
            }
            replica[name] = sections
        }
        return nil
    }

    // MARK: - The generator

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

    private func nextOperation() -> ModelOperation {
        if reference.tables.isEmpty && rng.percent(60) { return .createTable(rng.pick(Self.tableNames)) }
        let name = tableName()
        let roll = rng.below(128)
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
        default:
            return .listTables
        }
    }
}
