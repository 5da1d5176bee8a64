// SPDX-License-Identifier: MIT

/// A row the menu acts on: its table, where it was when chosen, and its id.
public struct MenuRow: Equatable, Sendable {
    /// The table.
    public var table: String
    /// The section index.
    public var section: Int
    /// The row index within the section.
    public var row: Int
    /// The row's id.
    public var id: UInt64

    /// Makes a row reference.
    public init(table: String, section: Int, row: Int, id: UInt64) {
        self.table = table
        self.section = section
        self.row = row
        self.id = id
    }
}
