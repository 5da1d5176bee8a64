// SPDX-License-Identifier: MIT

/// One section of a table as the menu lays it out: its titles and how many rows it has.
public struct SectionOutline: Equatable, Sendable {
    /// The header title ("" = none, no line).
    public var header: String
    /// The footer title ("" = none, no line).
    public var footer: String
    /// The number of rows.
    public var rowCount: Int

    /// Makes an outline.
    public init(header: String, footer: String, rowCount: Int) {
        self.header = header
        self.footer = footer
        self.rowCount = rowCount
    }
}

/// A row as fetched: its id and its whole text.
public struct FetchedRow: Equatable, Sendable {
    /// The row's id.
    public var id: UInt64
    /// The cell's text.
    public var text: String

    /// Makes a fetched row.
    public init(id: UInt64, text: String) {
        self.id = id
        self.text = text
    }
}

/// Where a table's rows come from (the daemon's `GetRows`, or a test's array).
public protocol RowSource: AnyObject {
    /// Rows `offset ..< offset + limit` of `section`; `limit` 0 means every row from `offset`.
    func rows(section: Int, offset: Int, limit: Int) throws -> [FetchedRow]

    /// The same rows with each text cut to its first `characters` characters (the daemon's
    /// `GetRowPreviews`): what a menu needs to show them.
    func previews(section: Int, offset: Int, limit: Int, characters: Int) throws -> [FetchedRow]
}

extension RowSource {
    /// The rows whole, for sources that cannot cut them.
    public func previews(section: Int, offset: Int, limit: Int, characters: Int) throws -> [FetchedRow] {
        try rows(section: section, offset: offset, limit: limit)
    }
}
