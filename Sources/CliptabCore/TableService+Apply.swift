// SPDX-License-Identifier: MIT
import CliptabContract
import Quoting

/// Table documents: a table as a document, and a document applied to a table.
extension TableService {
    /// The table as a document, settings included.
    public func document(of name: String) throws -> TableDocument {
        Self.document(of: try table(name))
    }

    /// `table` as a document: the templates flag when on, the actions when not all.
    static func document(of table: Table) -> TableDocument {
        TableDocument(
            templates: table.record.isTemplates ? true : nil,
            actions: table.record.allowedActions == .all ? nil : table.record.allowedActions,
            sections: table.sections.map { section in
                DocumentSection(
                    header: section.header, footer: section.footer,
                    rows: section.rows.map {
                        DocumentRow(name: table.names.name(of: $0.id) ?? "", text: $0.text)
                    })
            })
    }

    /// A document's sections and rows as an imported table (its settings are the caller's).
    static func exchange(_ document: TableDocument, name: String) -> ExchangeTable {
        ExchangeTable(
            name: name,
            sections: document.sections.map { section in
                ExchangeSection(
                    header: section.header, footer: section.footer,
                    rows: section.rows.map { ExchangeRow(text: $0.text, name: $0.name) })
            })
    }

    /// The table-file codec, or `invalidArgument` where none is linked.
    func codec() throws -> TableDocumentCodec {
        guard let documentCodec else {
            throw CliptabError(.invalidArgument, "the yaml format is not available in this program")
        }
        return documentCodec
    }

    /// Applies the table file `data` (see `apply(_:document:revision:dryRun:)`).
    @discardableResult
    public func apply(_ name: String, data: String, revision: UInt64, dryRun: Bool) throws -> (
        revision: UInt64, counts: ApplyCounts
    ) {
        try apply(name, document: try codec().decode(data), revision: revision, dryRun: dryRun)
    }

    /// Makes the table equal to `document` with the fewest changes, in one transaction
    /// (creating the table if missing); the new revision and what changed.
    ///
    /// `revision` is the one the document was read at (0: any); another is refused with
    /// `RevisionMismatch`. Nothing changed: nothing is written and the revision stays; only
    /// settings changed: they are written, and the revision stays, as `SetAllowedActions`
    /// and `SetTemplates` leave it. A dry run changes nothing and answers what would change.
    @discardableResult
    public func apply(_ name: String, document: TableDocument, revision: UInt64, dryRun: Bool) throws -> (
        revision: UInt64, counts: ApplyCounts
    ) {
        try check(document)
        let existing = catalog.tables[name]
        let current = existing?.record.revision ?? 0
        if revision != 0 && revision != current {
            throw CliptabError(
                .revisionMismatch,
                existing == nil
                    ? "table \(Quotation.quoted(name)) no longer exists (the document was read at revision \(revision))"
                    : "table \(Quotation.quoted(name)) changed since revision \(revision) (it is at revision \(current)); nothing was applied"
            )
        }
        var counters = catalog.counters
        var table: Table
        if let existing {
            table = existing
        } else {
            try TableName.validate(name)
            table = Table(
                record: TableRecord(
                    id: counters.nextTableID, name: name, revision: 0, allowedActions: .all, isSecret: false))
            counters.nextTableID += 1
        }
        let plan = DocumentPlan(table: table, document: document)
        let counts = plan.counts()
        guard !dryRun else { return (current, counts) }
        if existing != nil {
            guard !counts.isEmpty else { return (current, counts) }
            try checkPermissions(table, counts)
        }
        try checkTemplates(of: plan, in: table)
        var record = table.record
        if let templates = document.templates { record.isTemplates = templates }
        if let actions = document.actions { record.allowedActions = actions }
        var writes: [StoreWrite] = []
        var events: [TableEvent] = []
        if existing == nil {
            writes.append(.createTable(table.record))
            events.append(.tableAdded(name))
        }
        guard counts.changesContent || existing == nil else {
            try commit([.updateTable(record)], [])
            return (current, counts)
        }
        record.revision += 1
        if existing == nil {
            // TableAdded means a table with one empty section; this one has only the document's.
            events.append(.sectionsDeleted(table: name, revision: record.revision, sections: [0]))
        }
        let edits = plan.edits(record: record, counters: counters)
        writes += edits.writes
        writes += [.updateTable(record), .setCounters(edits.counters)]
        events += edits.events
        try commit(writes, events)
        return (record.revision, counts)
    }

    /// Checks a document's cells, names and size against the limits and the name rules.
    private func check(_ document: TableDocument) throws {
        if document.sections.count > limits.maxSectionsPerTable {
            throw CliptabError(
                .limitExceeded,
                "the document has \(document.sections.count) sections; the limit is \(limits.maxSectionsPerTable)"
            )
        }
        if document.rowCount > limits.maxRowsPerTable {
            throw CliptabError(
                .limitExceeded,
                "the document has \(document.rowCount) rows; the limit is \(limits.maxRowsPerTable)")
        }
        var names = Set<String>()
        for (s, section) in document.sections.enumerated() {
            try limits.checkCell(section.header, what: "the header of section \(s)")
            try limits.checkCell(section.footer, what: "the footer of section \(s)")
            for (r, row) in section.rows.enumerated() {
                try limits.checkCell(row.text, what: "the text of row \(s):\(r)")
                guard !row.name.isEmpty else { continue }
                do { try Self.checkRowName(row.name) } catch let error as CliptabError {
                    throw CliptabError(error.code, "row \(s):\(r): \(error.message)")
                }
                guard names.insert(row.name).inserted else {
                    throw CliptabError(
                        .nameInUse,
                        "row \(s):\(r) is named \(Quotation.quoted(row.name)), as an earlier row is")
                }
            }
        }
    }

    /// Throws `NotPermitted` unless the table allows every kind of change the plan makes.
    private func checkPermissions(_ table: Table, _ counts: ApplyCounts) throws {
        if counts.rowsDeleted + counts.sectionsDeleted > 0 { try Self.check(table, permits: .delete) }
        if counts.rowsAdded + counts.sectionsAdded > 0 { try Self.check(table, permits: .insert) }
        if counts.rowsMoved + counts.sectionsMoved > 0 { try Self.check(table, permits: .move) }
        if counts.rowsChanged + counts.sectionsChanged > 0 { try Self.check(table, permits: .edit) }
    }

    /// Throws `InvalidTemplate` naming the row unless every new or changed text may be a row
    /// of a templates table (every text, when the document turns templates on), and the
    /// named rows of the table the document makes form no cycle of snippets.
    private func checkTemplates(of plan: DocumentPlan, in table: Table) throws {
        let turningOn = plan.document.templates == true && !table.record.isTemplates
        guard turningOn || (table.record.isTemplates && plan.document.templates != false) else { return }
        var named: [NamedRow] = []
        for (j, section) in plan.document.sections.enumerated() {
            for (p, row) in section.rows.enumerated() {
                if !row.name.isEmpty {
                    named.append(NamedRow(name: row.name, text: row.text, section: j, row: p))
                }
                let f = plan.rowMatch[j][p]
                guard turningOn || f < 0 || plan.rows[f].text != row.text else { continue }
                do { try Self.checkParses(row.text) } catch let error as CliptabError {
                    throw CliptabError(error.code, "row \(j):\(p): \(error.message)")
                }
            }
        }
        try checkCycles(of: table.name, namedRows: named)
    }
}
