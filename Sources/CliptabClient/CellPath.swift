// SPDX-License-Identifier: MIT

/// A row's place in a table as the signals carry it: section and row index.
public struct CellPath: Equatable, Hashable, Sendable {
    /// The section's index.
    public let section: Int32
    /// The row's index in its section.
    public let row: Int32

    /// The path of row `row` of section `section`.
    public init(section: Int32, row: Int32) {
        self.section = section
        self.row = row
    }
}
