// SPDX-License-Identifier: MIT
import CliptabClient
import DBus
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

    /// False once the daemon answered that it has no `GetRowPreviews` (API version 2).
    private var hasPreviews = true

    /// `GetRows` for one page (or all rows for `limit` 0).
    public func rows(section: Int, offset: Int, limit: Int) throws -> [FetchedRow] {
        try fetch(
            "GetRows",
            [.string(table), .int32(Int32(section)), .uint32(UInt32(offset)), .uint32(UInt32(limit))])
    }

    /// `GetRowPreviews` for one page: each text's first `characters` characters; `GetRows`
    /// from a daemon without it.
    public func previews(section: Int, offset: Int, limit: Int, characters: Int) throws -> [FetchedRow] {
        if hasPreviews {
            do throws(ClientFailure) {
                return try fetch(
                    "GetRowPreviews",
                    [
                        .string(table), .int32(Int32(section)), .uint32(UInt32(offset)),
                        .uint32(UInt32(limit)),
                        .uint32(UInt32(clamping: characters)),
                    ])
            } catch  where error.isUnknownMethod {
                hasPreviews = false
            }
        }
        return try rows(section: section, offset: offset, limit: limit)
    }

    /// Calls `member` and reads its `a(ts)` reply.
    private func fetch(_ member: String, _ arguments: [BusValue]) throws(ClientFailure) -> [FetchedRow] {
        try client.call(member, arguments).structures(0, "(ts)").map { pair in
            FetchedRow(id: (try? pair.uint64(at: 0)) ?? 0, text: (try? pair.string(at: 1)) ?? "")
        }
    }
}
