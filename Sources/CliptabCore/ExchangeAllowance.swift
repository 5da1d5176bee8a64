// SPDX-License-Identifier: MIT

/// What an import may still add to its table, spent while the data is decoded so that the
/// decoder stops at the first row, section or cell over a limit instead of building
/// everything first.
public struct ExchangeAllowance: Sendable {
    /// Rows the import may still add.
    public private(set) var rows: Int
    /// Sections the import may still add.
    public private(set) var sections: Int
    /// The largest cell text or title, in UTF-8 bytes.
    public let maxCellBytes: Int
    /// The table's name, for messages.
    public let tableName: String
    /// The row and section limits themselves, for messages.
    private let rowLimit: Int
    private let sectionLimit: Int

    /// No limits (for callers that decode data they made themselves).
    public static let unlimited = ExchangeAllowance(tableName: "", limits: nil, keptRows: 0, keptSections: 0)

    /// The room `limits` leave in table `tableName` next to `keptRows` and `keptSections`
    /// that stay; no limits at all when `limits` is nil.
    public init(tableName: String, limits: Limits?, keptRows: Int, keptSections: Int) {
        self.tableName = tableName
        rowLimit = limits?.maxRowsPerTable ?? .max
        sectionLimit = limits?.maxSectionsPerTable ?? .max
        rows = limits.map { $0.maxRowsPerTable - keptRows } ?? .max
        sections = limits.map { $0.maxSectionsPerTable - keptSections } ?? .max
        maxCellBytes = limits?.maxCellBytes ?? .max
    }

    /// Spends one row whose text is `bytes` long; `limitExceeded` naming the limit when over.
    public mutating func spendRow(bytes: Int) throws(CliptabError) {
        try checkCell(bytes: bytes, what: "row text")
        rows -= 1
        if rows < 0 {
            throw CliptabError(
                .limitExceeded,
                "the import would give table \"\(tableName)\" at least \(rowLimit + 1) rows; the limit is "
                    + "\(rowLimit) (the import stopped at the first row over it)")
        }
    }

    /// Spends one section; `limitExceeded` naming the limit when over.
    public mutating func spendSection() throws(CliptabError) {
        sections -= 1
        if sections < 0 {
            throw CliptabError(
                .limitExceeded,
                "the import would give table \"\(tableName)\" at least \(sectionLimit + 1) sections; the limit is "
                    + "\(sectionLimit) (the import stopped at the first section over it)")
        }
    }

    /// Checks a cell or title of `bytes` bytes against the cell limit.
    public func checkCell(bytes: Int, what: String) throws(CliptabError) {
        if bytes > maxCellBytes {
            throw CliptabError(
                .limitExceeded, "\(what) is \(bytes) bytes; the limit is \(maxCellBytes) bytes")
        }
    }
}
