// SPDX-License-Identifier: MIT
import Quoting

/// Templates tables: the flag, the checks when a row is stored, and the expansion of a row.
extension TableService {
    /// A row to copy or paste, with what its expansion needs.
    public struct UsedCell: Sendable {
        /// The stored text.
        public var text: String
        /// The row's id.
        public var id: UInt64
        /// Whether the table is secret.
        public var isSecret: Bool
        /// Whether the table's rows are templates.
        public var isTemplate: Bool
        /// The table's name.
        public var table: String
        /// The row's name, if it has one.
        public var rowName: String?

        /// The stored text as it is used where nothing is filled in, secret with its table.
        public var asIs: TemplateExpansion { TemplateExpansion(text: text, isSecret: isSecret) }
    }

    /// Turns templates on or off for a table.
    ///
    /// Turning them on checks every row first: a row that is not a well-formed template, or
    /// named rows whose snippets would make a cycle, refuse it (`InvalidTemplate` naming the
    /// row) and nothing changes. The check costs one parse per row and one visit per named
    /// row reached, however the rows name each other.
    public func setTemplates(_ name: String, _ isOn: Bool) throws {
        let table = try table(name)
        if isOn && !table.record.isTemplates {
            for (s, section) in table.sections.enumerated() {
                for (r, row) in section.rows.enumerated() where !Template.isPlain(row.text) {
                    do { _ = try Template(parsing: row.text) } catch {
                        throw CliptabError(
                            .invalidTemplate,
                            "row \(s):\(r) of table \(Quotation.quoted(name)): \(error.contractError.message)"
                        )
                    }
                }
            }
            try checkCycles(of: name, namedRows: Self.namedRows(of: table))
        }
        guard isOn != table.record.isTemplates else { return }
        var record = table.record
        record.isTemplates = isOn
        try commit([.updateTable(record)], [])
    }

    /// The cell at (section, row) for a copy or paste guarded by `action`.
    public func cellForUse(of name: String, section: Int32, row: Int32, as action: TableAction? = .copy)
        throws
        -> UsedCell
    {
        let table = try action.map { try self.table(name, permitting: $0) } ?? self.table(name)
        let (s, r) = try Self.path(table, section, row)
        let cell = table.sections[s].rows[r]
        return UsedCell(
            text: cell.text, id: cell.id, isSecret: table.record.isSecret,
            isTemplate: table.record.isTemplates,
            table: name, rowName: table.names.name(of: cell.id))
    }

    /// Throws `NotPermitted` unless table `name` allows `action` (`NoSuchTable` when there is none).
    public func checkPermission(_ name: String, _ action: TableAction) throws {
        _ = try table(name, permitting: action)
    }

    /// The row of table `table` named `name`, as `{snippet:…}` finds it, or nil.
    public func snippetSource(table: String, name: String) -> TemplateSource? {
        guard let found = catalog.tables[table], let place = found.names.place(of: name),
            let path = Self.path(of: place, in: found)
        else { return nil }
        let text = found.sections[Int(path.section)].rows[Int(path.row)].text
        return TemplateSource(
            text: text, isTemplate: found.record.isTemplates, isSecret: found.record.isSecret)
    }

    /// Expands `cell` with `context`, its snippets found in these tables; a cell of a table
    /// without templates is its text.
    ///
    /// The result is secret when the cell's table is, or when it includes a secret (a secret
    /// table's row, a clipboard text marked secret): the one place that says so.
    public func expand(_ cell: UsedCell, context: TemplateContext) throws -> TemplateExpansion {
        guard cell.isTemplate, !Template.isPlain(cell.text) else { return cell.asIs }
        var context = context
        context.snippet = { [unowned self] table, name in self.snippetSource(table: table, name: name) }
        var expansion = try Template.expand(
            cell.text, table: cell.table, origin: cell.rowName, context: context)
        expansion.isSecret = expansion.isSecret || cell.isSecret
        return expansion
    }

    /// Throws `InvalidTemplate` unless `text` may be a row of `table` (named `rowName`).
    ///
    /// It must be a well-formed template whose snippets make no cycle through it. Nothing
    /// to check for a table without templates.
    func checkTemplate(_ text: String, in table: Table, rowName: String?) throws {
        guard table.record.isTemplates, !Template.isPlain(text) else { return }
        let limits = TemplateLimits.defaults
        do { _ = try Template(parsing: text, limits: limits) } catch { throw error.contractError }
        // Only a named row can be named again by a snippet: only it can close a cycle.
        guard let rowName else { return }
        let tableName = table.name
        let context = TemplateContext(
            now: 0, clipboard: "", random: { 0 },
            snippet: { [unowned self] named, name in
                if named == tableName && name == rowName {
                    return TemplateSource(text: text, isTemplate: true)
                }
                return self.snippetSource(table: named, name: name)
            }, limits: limits, isInspection: true)
        do {
            _ = try Template.expand(text, table: tableName, origin: rowName, context: context)
        } catch {
            // Bounds are the expansion's to enforce, with the values of the day; a cycle is not.
            if error.code != .limitExceeded { throw error }
        }
    }

    /// A named row of a table as it will be, for the cycle check: its name, text and place.
    struct NamedRow {
        /// The row's name.
        var name: String
        /// The row's text.
        var text: String
        /// The row's section index.
        var section: Int
        /// The row's index in its section.
        var row: Int
    }

    /// The named rows of `table`, in table order.
    static func namedRows(of table: Table) -> [NamedRow] {
        guard !table.names.isEmpty else { return [] }
        var rows: [NamedRow] = []
        for (s, section) in table.sections.enumerated() {
            for (r, row) in section.rows.enumerated() {
                if let name = table.names.name(of: row.id) {
                    rows.append(NamedRow(name: name, text: row.text, section: s, row: r))
                }
            }
        }
        return rows
    }

    /// Throws `InvalidTemplate` unless `text` parses as a template (a plain text does).
    static func checkParses(_ text: String) throws {
        guard !Template.isPlain(text) else { return }
        do { _ = try Template(parsing: text, limits: TemplateLimits.defaults) } catch {
            throw error.contractError
        }
    }

    /// Throws `InvalidTemplate` naming a row of a cycle of snippets among `rows`, the named
    /// rows of table `tableName` as it will be (templates on), and the templates tables they
    /// reach as they are.
    ///
    /// The rows given stand for the whole table, so that a document or an import is checked
    /// as the table it makes, not the one it replaces. A depth-first walk that visits each
    /// named row once; it goes no deeper than an expansion may nest, so a longer chain is
    /// left to the expansion's bound.
    func checkCycles(of tableName: String, namedRows rows: [NamedRow]) throws {
        guard !rows.isEmpty else { return }
        var own: [String: NamedRow] = [:]
        for row in rows { own[row.name] = row }
        var finished = Set<String>()
        var path: [(table: String, name: String)] = []
        func source(_ table: String, _ name: String) -> TemplateSource? {
            if table == tableName { return own[name].map { TemplateSource(text: $0.text, isTemplate: true) } }
            return snippetSource(table: table, name: name)
        }
        func visit(_ table: String, _ name: String, _ text: String) throws {
            let key = table + "/" + name
            if finished.contains(key) { return }
            if let start = path.firstIndex(where: { $0.table == table && $0.name == name }) {
                let place = path[start...].lazy.compactMap { $0.table == tableName ? own[$0.name] : nil }
                    .first
                throw CliptabError(
                    .invalidTemplate,
                    (place.map { "row \($0.section):\($0.row) of table \(Quotation.quoted(tableName)): " }
                        ?? "")
                        + "the snippets make a cycle: "
                        + (path[start...].map { $0.table + "/" + $0.name } + [key]).joined(separator: " → "))
            }
            guard path.count <= TemplateLimits.defaults.maxDepth, !Template.isPlain(text),
                let template = try? Template(parsing: text)
            else {
                finished.insert(key)
                return
            }
            path.append((table, name))
            for case .snippet(let named, let target) in template.parts {
                let targetTable = named ?? table
                if let found = source(targetTable, target), found.isTemplate {
                    try visit(targetTable, target, found.text)
                }
            }
            path.removeLast()
            finished.insert(key)
        }
        // In table order, so that the cycle named is the same every time.
        for row in rows { try visit(tableName, row.name, row.text) }
    }

    /// Throws `InvalidTemplate` naming the text's place in a batch unless each of `texts`
    /// may be a new row of `table`.
    func checkTemplates(_ texts: [String], in table: Table) throws {
        guard table.record.isTemplates else { return }
        for (i, text) in texts.enumerated() {
            do { try checkTemplate(text, in: table, rowName: nil) } catch let error as CliptabError {
                throw texts.count == 1
                    ? error : CliptabError(error.code, "text \(i) of \(texts.count): \(error.message)")
            }
        }
    }
}
