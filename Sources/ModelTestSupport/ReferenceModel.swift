// SPDX-License-Identifier: MIT
import CliptabCore

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

    /// The row-name grammar, written out again here rather than taken from the code under test.
    static func isRowName(_ name: String) -> Bool {
        let letters = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")
        let rest = letters.union("0123456789.-")
        guard let first = name.first, name.utf8.count <= 64, letters.contains(first) else { return false }
        return name.allSatisfy { rest.contains($0) }
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
                // Replacing deletes the old rows, so it needs `delete` as well.
                guard !replace || existing.allowed.contains(.delete) else { throw Refusal(.notPermitted) }
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
            // GetRows answers ids and texts; names are not part of a row's reply.
            return (.rows(rows[start..<end].map { ReferenceRow(id: $0.id, text: $0.text) }), false)

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

        case .setRowName(let name, let section, let row, let rowName):
            var table = try table(name, permitting: .edit)
            let s = try Self.existing(section, table.sections.count)
            let r = try Self.existing(row, table.sections[s].rows.count)
            if !rowName.isEmpty {
                guard Self.isRowName(rowName) else { throw Refusal(.invalidName) }
                if let holder = table.path(named: rowName),
                    holder != IndexPath(section: Int32(s), row: Int32(r))
                {
                    throw Refusal(.nameInUse)
                }
            }
            table.sections[s].rows[r].name = rowName
            table.revision += 1
            tables[name] = table
            return (.nothing, true)

        case .findRow(let name, let rowName):
            let table = try table(name)
            guard !rowName.isEmpty, let path = table.path(named: rowName) else { throw Refusal(.noSuchRow) }
            return (.location(name, path), false)

        case .listTables:
            return (.names(tables.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }), false)
        }
    }
}
