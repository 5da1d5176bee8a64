// SPDX-License-Identifier: MIT
import CliptabCore
import TestSupport

/// One randomized sequence: random calls on the service and the reference, compared after
/// every step; the service's events replayed onto a replica, compared too.
public final class ModelRun {
    /// The seed that replays this run.
    public let seed: UInt64
    /// The service under test.
    public private(set) var service: TableService
    private var hooks: FaultHooks
    /// The run's generator, from `seed`.
    var rng: SeededRandom
    /// The reference the service is compared with.
    var reference: ReferenceModel
    /// Each table's sections as the events made them (see `ModelRun+Replica.swift`).
    var replica: [String: [ReplicaSection]] = [:]
    private var issued = Set<UInt64>()
    /// The same ids in order, for the generator's `locate` calls.
    var issuedList: [UInt64] = []
    /// The events of the current step, as the service announces them.
    private let tap = TableEventTap()
    private var events: [TableEvent] { tap.events }
    private var steps = 0
    /// Every "call:outcome" seen so far ("insertRows:ok", "moveRow:IndexOutOfRange"), to
    /// show that the generator reaches every kind of call and error.
    public private(set) var coverage = Set<String>()
    private let failurePercent: Int

    /// Starts a run of `seed` over the service `makeService` makes (with an empty catalog,
    /// announcing through the closure it is given) and its `hooks`.
    public init(
        seed: UInt64, hooks: FaultHooks, failurePercent: Int = 4,
        service makeService: (@escaping (TableEvent, Catalog) -> Void) -> TableService
    ) {
        self.seed = seed
        let service = makeService(tap.record)
        self.service = service
        self.hooks = hooks
        self.failurePercent = failurePercent
        rng = SeededRandom(seed: seed)
        reference = ReferenceModel(limits: service.limits)
    }

    /// Continues the run on another service (a reopened store) holding the same state.
    public func attach(
        hooks: FaultHooks, service makeService: (@escaping (TableEvent, Catalog) -> Void) -> TableService
    ) {
        service = makeService(tap.record)
        self.hooks = hooks
    }

    /// Lets go of the service and its persistence (so a store can close).
    public func detach() {
        attach(hooks: .memory(MemoryPersistence())) { _ in
            TableService(catalog: Catalog(), persistence: MemoryPersistence(), announce: { _, _ in })
        }
    }

    /// Runs `count` random steps; nil, or a description of the first disagreement with the
    /// seed and step that reproduce it.
    public func run(steps count: Int) -> String? {
        for _ in 0..<count {
            let operation = nextOperation()
            steps += 1
            if let problem = check(operation) {
                return "\(SeededRandom.replay(seed)), step \(steps), \(operation): \(problem)"
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
        tap.clear()
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
            let copied = try service.cellForUse(of: name, section: section, row: row, as: action)
            return .copied(copied.text, copied.id, copied.isSecret)
        case .copySection(let name, let section, let separator):
            let copied = try service.sectionText(of: name, section: section, separator: separator)
            return .copied(copied.text, 0, copied.isSecret)
        case .listTables:
            return .names(service.listTables())
        case .setRowName(let name, let section, let row, let rowName):
            try service.setRowName(name, section: section, row: row, rowName: rowName)
        case .findRow(let name, let rowName):
            return .location(name, try service.findRow(name, rowName: rowName).path)
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
                    rows: section.rows.map {
                        ReferenceRow(id: $0.id, text: $0.text, name: table.names.name(of: $0.id) ?? "")
                    })
            }
            if table.names.count
                != expected.sections.reduce(0, { $0 + $1.rows.filter { !$0.name.isEmpty }.count })
            {
                return "\(name): \(table.names.count) names in the index, not one per named row"
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
                    "\(name) section \(s): rows\n  \(actual.rows.map { "\($0.id):\($0.name):\($0.text)" })\nexpected\n  \(wanted.rows.map { "\($0.id):\($0.name):\($0.text)" })"
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

}
