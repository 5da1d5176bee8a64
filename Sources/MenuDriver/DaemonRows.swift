// SPDX-License-Identifier: MIT
import CliptabClient
import MenuModel

/// One table's rows, fetched from the daemon page by page.
public final class DaemonRows: RowSource {
    private let client: CliptabClient
    private let table: String

    /// How much of each row is fetched to show it: more than a line keeps
    /// (`MenuLine.shownLimit`), with 255 characters more to see whether more lines follow
    /// (a first line followed by more blank characters than that shows no ⏎ mark).
    ///
    /// No more than that: 20 rows of rare characters (4 bytes each in UTF-8) fetched as 4,096
    /// characters each made 320 KB to send, validate and decode, 2 ms of the first frame.
    public static let previewCharacters = MenuLine.shownLimit + 256

    /// The rows of `table` through `client`.
    public init(client: CliptabClient, table: String) {
        self.client = client
        self.table = table
    }

    /// `GetRows` for one page (or all rows for `limit` 0).
    public func rows(section: Int, offset: Int, limit: Int) throws -> [FetchedRow] {
        try client.rows(table, section: Int32(section), offset: UInt32(offset), limit: UInt32(limit))
            .map { FetchedRow(id: $0.id, text: $0.text) }
    }

    /// `GetRowPreviews` for one page: each text's first `characters` characters (whole from a
    /// daemon without it).
    public func previews(section: Int, offset: Int, limit: Int, characters: Int) throws -> [FetchedRow] {
        try client.rowPreviews(
            table, section: Int32(section), offset: UInt32(offset), limit: UInt32(limit),
            characters: UInt32(clamping: characters)
        ).map { FetchedRow(id: $0.id, text: $0.text) }
    }
}
