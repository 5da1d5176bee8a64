// SPDX-License-Identifier: MIT
import CliptabContract
import DBus

/// A cell of a table: the table's name and the cell's index path, as the contract's calls
/// take it.
public struct TableCell: Equatable, Hashable, Sendable {
    /// The table's name.
    public var table: String
    /// The section's index.
    public var section: Int32
    /// The row's index in its section.
    public var row: Int32

    /// Row `row` of section `section` of `table`.
    public init(_ table: String, section: Int32, row: Int32) {
        self.table = table
        self.section = section
        self.row = row
    }

    /// The three arguments every cell's call starts with.
    var arguments: [BusValue] { [.string(table), .int32(section), .int32(row)] }
}
