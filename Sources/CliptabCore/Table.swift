// SPDX-License-Identifier: MIT

/// A named table: its record and ordered sections.
public struct Table: Equatable, Sendable {
    /// Identity and settings.
    public var record: TableRecord
    /// The sections, in order.
    public var sections: [Section]

    /// Makes a table.
    public init(record: TableRecord, sections: [Section] = []) {
        self.record = record
        self.sections = sections
    }

    /// The table's name.
    public var name: String { record.name }
    /// The number of rows in all sections.
    public var rowCount: Int { sections.reduce(0) { $0 + $1.rows.count } }
}
