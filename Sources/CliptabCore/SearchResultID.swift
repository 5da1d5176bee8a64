// SPDX-License-Identifier: MIT

/// The identifier of a search result, as the desktop hands it back: the row's id with the
/// place it had (table id, section id, order key), so that a result is found again with a
/// binary search rather than a scan, and still found by its id after it moved.
///
/// Written `ROW:TABLE:SECTION:KEY` in decimal, such as `42:3:7:-1024`.
public struct SearchResultID: Hashable, Sendable, CustomStringConvertible {
    /// The row's id.
    public var rowID: UInt64
    /// The id of the table the row was in.
    public var tableID: UInt64
    /// The id of the section the row was in.
    public var sectionID: UInt64
    /// The row's order key in that section.
    public var key: Int64

    /// Makes an identifier.
    public init(rowID: UInt64, tableID: UInt64, sectionID: UInt64, key: Int64) {
        self.rowID = rowID
        self.tableID = tableID
        self.sectionID = sectionID
        self.key = key
    }

    /// Reads an identifier written by `description`; nil for anything else.
    public init?(_ text: String) {
        let parts = text.utf8.count <= 80 ? text.split(separator: ":", omittingEmptySubsequences: false) : []
        guard parts.count == 4, let rowID = UInt64(parts[0]), let tableID = UInt64(parts[1]),
            let sectionID = UInt64(parts[2]), let key = Int64(parts[3])
        else { return nil }
        self.init(rowID: rowID, tableID: tableID, sectionID: sectionID, key: key)
    }

    /// The identifier as the desktop gets it.
    public var description: String { "\(rowID):\(tableID):\(sectionID):\(key)" }
}
