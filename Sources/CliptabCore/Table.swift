// SPDX-License-Identifier: MIT

/// A named table: its record and ordered sections.
public struct Table: Equatable, Sendable {
    /// Identity and settings.
    public var record: TableRecord
    /// The sections, in order.
    public var sections: [Section]
    /// The names of its named rows.
    public var names: RowNameIndex

    /// Makes a table.
    public init(record: TableRecord, sections: [Section] = [], names: RowNameIndex = RowNameIndex()) {
        self.record = record
        self.sections = sections
        self.names = names
    }

    /// The table's name.
    public var name: String { record.name }
    /// The number of rows in all sections.
    public var rowCount: Int { sections.reduce(0) { $0 + $1.rows.count } }
}
