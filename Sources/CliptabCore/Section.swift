// SPDX-License-Identifier: MIT

/// A section of a table: optional header and footer titles and ordered rows.
public struct Section: Equatable, Sendable {
    /// The store's id of the section (internal; not part of the API).
    public var id: UInt64
    /// The sparse order key that sorts the section within its table in the store.
    public var key: Int64
    /// The header title; empty = none.
    public var header: String
    /// The footer title; empty = none.
    public var footer: String
    /// The rows, in order.
    public var rows: RowList

    /// Makes a section.
    public init(id: UInt64, key: Int64, header: String, footer: String, rows: RowList = RowList()) {
        self.id = id
        self.key = key
        self.header = header
        self.footer = footer
        self.rows = rows
    }
}
