// SPDX-License-Identifier: MIT
import Quoting

/// Exporting a table in an exchange format, and importing one.
extension TableService {
    /// The table in an exchange format.
    public func export(_ name: String, format: String) throws -> String {
        let parsed = try ExchangeFormat(parsing: format)
        let table = try table(name)
        if parsed == .yaml { return try codec().encode(Self.document(of: table)) }
        let exchange = ExchangeTable(
            name: name,
            sections: table.sections.map { section in
                ExchangeSection(
                    header: section.header, footer: section.footer,
                    rows: section.rows.map {
                        ExchangeRow(id: $0.id, text: $0.text, name: table.names.name(of: $0.id) ?? "")
                    })
            })
        return try ExchangeCodec.encode(exchange, as: parsed)
    }

    /// Imports `data` as new sections appended to the table (created if missing; `replace`
    /// drops the old content first), atomically; returns the number of rows imported.
    public func importTable(_ name: String, format: String, data: String, replace: Bool) throws -> UInt32 {
        let parsed = try ExchangeFormat(parsing: format)
        var plan = try importTarget(name, replace: replace)
        // The room left is known before decoding, so that the decoder stops at the first row
        // or section over a limit rather than building all of a hostile message first.
        let keptRows = replace ? 0 : plan.keptSections.reduce(0) { $0 + $1.rows.count }
        let keptSections = replace ? 0 : plan.keptSections.count
        let allowance = ExchangeAllowance(
            tableName: name, limits: limits, keptRows: keptRows, keptSections: keptSections)
        let document = parsed == .yaml ? try codec().decode(data) : nil
        let imported =
            try document.map { Self.exchange($0, name: name) }
            ?? ExchangeCodec.decode(data, as: parsed, tableName: name, allowance: allowance)
        try checkCells(of: imported)
        // A table file's settings keys are applied with its rows; keys left out keep them.
        if let templates = document?.templates { plan.record.isTemplates = templates }
        if let actions = document?.actions { plan.record.allowedActions = actions }
        plan.record.revision += 1
        if plan.createdByImport {
            plan.events.append(.sectionsDeleted(table: name, revision: plan.record.revision, sections: [0]))
        }
        if replace { plan.dropExistingSections() }
        try checkNames(of: imported, keeping: replace ? nil : catalog.tables[name])
        try checkRoom(in: plan, for: imported)
        try checkTemplates(of: imported, into: plan, replace: replace, cycles: document != nil)
        plan.append(imported.sections)
        plan.writes += [.updateTable(plan.record), .setCounters(plan.counters)]
        plan.events.append(
            .sectionsInserted(table: name, revision: plan.record.revision, sections: plan.insertedSections))
        plan.events.append(
            .rowsInserted(table: name, revision: plan.record.revision, paths: plan.insertedRows))
        try commit(plan.writes, plan.events)
        return UInt32(imported.sections.reduce(0) { $0 + $1.rows.count })
    }

    /// The table an import goes into: the existing one (if it allows inserting, and deleting
    /// too when the import replaces its content) or a new one, whose creation is the first write.
    private func importTarget(_ name: String, replace: Bool) throws -> ImportPlan {
        if let table = catalog.tables[name] {
            try Self.check(table, permits: .insert)
            // Replacing deletes every row there is: not for a table that forbids deleting.
            if replace { try Self.check(table, permits: .delete) }
            return ImportPlan(
                name: name, record: table.record, counters: catalog.counters, keptSections: table.sections)
        }
        try TableName.validate(name)
        var counters = catalog.counters
        let record = TableRecord(
            id: counters.nextTableID, name: name, revision: 0, allowedActions: .all, isSecret: false)
        counters.nextTableID += 1
        var plan = ImportPlan(name: name, record: record, counters: counters, keptSections: [])
        plan.writes.append(.createTable(record))
        plan.events.append(.tableAdded(name))
        // TableAdded means "a table with one empty section" to a client that follows the
        // signals; an imported table has only its imported sections, so that section is
        // announced as gone at once.
        plan.createdByImport = true
        return plan
    }

    /// Throws `InvalidTemplate` unless the table the import makes may have templates on: each
    /// imported text (and each kept one, when the import turns templates on) a well-formed
    /// template, and, for a table file (`cycles`), its named rows, kept and imported, forming
    /// no cycle of snippets (the other formats' imports are checked for cycles when used).
    private func checkTemplates(
        of imported: ExchangeTable, into plan: ImportPlan, replace: Bool, cycles: Bool
    ) throws {
        guard plan.record.isTemplates else { return }
        let existing = catalog.tables[plan.name]
        let kept = replace ? [] : plan.keptSections
        var named: [NamedRow] = []
        for (s, section) in kept.enumerated() {
            for (r, row) in section.rows.enumerated() {
                if existing?.record.isTemplates != true {
                    do { try Self.checkParses(row.text) } catch let error as CliptabError {
                        throw CliptabError(
                            error.code,
                            "row \(s):\(r) of table \(Quotation.quoted(plan.name)): \(error.message)")
                    }
                }
                if let name = existing?.names.name(of: row.id) {
                    named.append(NamedRow(name: name, text: row.text, section: s, row: r))
                }
            }
        }
        let total = imported.sections.reduce(0) { $0 + $1.rows.count }
        var i = 0
        for (s, section) in imported.sections.enumerated() {
            for (r, row) in section.rows.enumerated() {
                do { try Self.checkParses(row.text) } catch let error as CliptabError {
                    throw total == 1
                        ? error : CliptabError(error.code, "text \(i) of \(total): \(error.message)")
                }
                i += 1
                if !row.name.isEmpty {
                    named.append(NamedRow(name: row.name, text: row.text, section: kept.count + s, row: r))
                }
            }
        }
        if cycles { try checkCycles(of: plan.name, namedRows: named) }
    }

    /// Checks every imported title and cell against the cell limit.
    private func checkCells(of imported: ExchangeTable) throws {
        for section in imported.sections {
            try limits.checkCell(section.header, what: "header")
            try limits.checkCell(section.footer, what: "footer")
            for row in section.rows { try limits.checkCell(row.text) }
        }
    }

    /// Checks the imported row names: each valid, none twice, none already held by a kept
    /// row of `kept`.
    private func checkNames(of imported: ExchangeTable, keeping kept: Table?) throws {
        var seen = Set<String>()
        for (s, section) in imported.sections.enumerated() {
            for (r, row) in section.rows.enumerated() where !row.name.isEmpty {
                do { try Self.checkRowName(row.name) } catch let error as CliptabError {
                    throw CliptabError(error.code, "imported row \(s):\(r): \(error.message)")
                }
                if !seen.insert(row.name).inserted || kept?.names.place(of: row.name) != nil {
                    throw CliptabError(
                        .nameInUse,
                        "imported row \(s):\(r) is named \(Quotation.quoted(row.name)), as another row of the table is"
                    )
                }
            }
        }
    }

    /// Checks that the kept and the imported sections and rows together fit the table limits.
    private func checkRoom(in plan: ImportPlan, for imported: ExchangeTable) throws {
        let rowTotal = imported.sections.reduce(0) { $0 + $1.rows.count }
        let kept = plan.keptSections.reduce(0) { $0 + $1.rows.count }
        if kept + rowTotal > limits.maxRowsPerTable {
            throw CliptabError(
                .limitExceeded,
                "the import would give table \"\(plan.name)\" \(kept + rowTotal) rows; the limit is \(limits.maxRowsPerTable)"
            )
        }
        let sectionTotal = plan.keptSections.count + imported.sections.count
        if sectionTotal > limits.maxSectionsPerTable {
            throw CliptabError(
                .limitExceeded,
                "the import would give table \"\(plan.name)\" \(sectionTotal) sections; the limit is \(limits.maxSectionsPerTable)"
            )
        }
    }
}
