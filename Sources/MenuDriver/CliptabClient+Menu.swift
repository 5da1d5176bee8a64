// SPDX-License-Identifier: MIT
import CliptabClient
import MenuModel

/// The menu's calls to cliptabd, read into the menu model's types.
extension CliptabClient {
    /// The table's sections, as the menu outlines them.
    public func outlines(_ table: String) throws(ClientFailure) -> [SectionOutline] {
        try sections(table).map {
            SectionOutline(header: $0.header, footer: $0.footer, rowCount: $0.rowCount)
        }
    }

    /// The row's actions, in the daemon's order.
    public func actions(_ row: MenuRow) throws(ClientFailure) -> [String] {
        try actions(Self.tableCell(row))
    }

    /// The row's text.
    public func text(_ row: MenuRow) throws(ClientFailure) -> String {
        try cell(Self.tableCell(row))
    }

    /// Where the row with `id` is now (rows move while a menu is open).
    public func locate(_ row: MenuRow) throws(ClientFailure) -> MenuRow {
        guard row.id != 0 else { return row }
        let found = try locate(row.id)
        return MenuRow(table: found.table, section: Int(found.section), row: Int(found.row), id: row.id)
    }

    /// The row's cell, as the calls take it.
    public static func tableCell(_ row: MenuRow) -> TableCell {
        TableCell(row.table, section: Int32(row.section), row: Int32(row.row))
    }
}

extension ClientFailure: CustomStringConvertible {
    /// The message shown in the menu.
    public var description: String {
        isGone ? "cliptabd is gone: \(error.message)" : "\(error.message)"
    }
}
