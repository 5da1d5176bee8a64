// SPDX-License-Identifier: MIT

/// One section of a table as a client of the daemon sees it: titles and rows.
public struct SectionSnapshot: Equatable, CustomStringConvertible {
    /// The header title ("" for none).
    public var header: String
    /// The footer title ("" for none).
    public var footer: String
    /// The rows in order.
    public var rows: [RowSnapshot]

    /// Makes a section.
    public init(header: String, footer: String, rows: [RowSnapshot]) {
        self.header = header
        self.footer = footer
        self.rows = rows
    }

    /// "[header|footer: rows]", for failure messages.
    public var description: String {
        "[\(header)|\(footer): \(rows.map(\.description).joined(separator: ", "))]"
    }
}
