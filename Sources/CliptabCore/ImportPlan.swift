// SPDX-License-Identifier: MIT

/// The writes and events of one import, built up step by step and committed at once.
struct ImportPlan {
    /// The table's name.
    let name: String
    /// The table's record, its revision bumped once for the whole import.
    var record: TableRecord
    /// The id counters, advanced for each new table, section and row.
    var counters: Counters
    /// The sections the import keeps (all of them unless it replaces).
    var keptSections: [Section]
    /// True when the import creates the table.
    var createdByImport = false
    /// The store writes, in order.
    var writes: [StoreWrite] = []
    /// The events to announce once committed, in order.
    var events: [TableEvent] = []
    /// The indexes of the new sections.
    var insertedSections: [Int32] = []
    /// The paths of the new rows.
    var insertedRows: [IndexPath] = []

    init(name: String, record: TableRecord, counters: Counters, keptSections: [Section]) {
        self.name = name
        self.record = record
        self.counters = counters
        self.keptSections = keptSections
    }

    /// Deletes the kept sections, as a replacing import does first.
    mutating func dropExistingSections() {
        guard !keptSections.isEmpty else { return }
        writes.append(.deleteSections(tableID: record.id, sectionIDs: keptSections.map(\.id)))
        events.append(
            .sectionsDeleted(
                table: name, revision: record.revision, sections: (0..<keptSections.count).map { Int32($0) }))
        keptSections = []
    }

    /// Writes `sections` after the kept ones, rows in order: plain ascending keys.
    mutating func append(_ sections: [ExchangeSection]) {
        var sectionKey = (keptSections.last?.key ?? -OrderKeys.spacing) + OrderKeys.spacing
        for section in sections {
            let sectionID = counters.nextSectionID
            counters.nextSectionID += 1
            writes.append(
                .insertSection(
                    tableID: record.id, id: sectionID, key: sectionKey, header: section.header,
                    footer: section.footer))
            let index = Int32(keptSections.count + insertedSections.count)
            insertedSections.append(index)
            sectionKey += OrderKeys.spacing
            var rowKey: Int64 = 0
            for (r, row) in section.rows.enumerated() {
                writes.append(
                    .insertRow(
                        tableID: record.id, sectionID: sectionID,
                        row: Row(id: counters.nextRowID, key: rowKey, text: row.text)))
                if !row.name.isEmpty {
                    writes.append(
                        .setRowName(
                            tableID: record.id, sectionID: sectionID, rowID: counters.nextRowID, key: rowKey,
                            name: row.name))
                }
                counters.nextRowID += 1
                rowKey += OrderKeys.spacing
                insertedRows.append(IndexPath(section: index, row: Int32(r)))
            }
        }
    }
}
