// SPDX-License-Identifier: MIT

/// The limits on what clients may store, each configurable.
public struct Limits: Equatable, Sendable {
    /// The longest table name, in UTF-8 bytes (fixed by the contract).
    public static let maxNameBytes = 255

    /// The largest cell text (and header or footer title), in UTF-8 bytes.
    public var maxCellBytes: Int
    /// The most rows one table may hold.
    public var maxRowsPerTable: Int
    /// The most sections one table may hold.
    public var maxSectionsPerTable: Int

    /// The contract's defaults: 16 MiB cells, 1,000,000 rows and 10,000 sections per table.
    public static let defaults = Limits(
        maxCellBytes: 16 << 20, maxRowsPerTable: 1_000_000, maxSectionsPerTable: 10_000)

    /// Makes a set of limits.
    public init(maxCellBytes: Int, maxRowsPerTable: Int, maxSectionsPerTable: Int) {
        self.maxCellBytes = maxCellBytes
        self.maxRowsPerTable = maxRowsPerTable
        self.maxSectionsPerTable = maxSectionsPerTable
    }

    /// Checks that `text` fits in a cell; `what` names it in the error ("row text", "header").
    public func checkCell(_ text: String, what: String = "cell text") throws(CliptabError) {
        let size = text.utf8.count
        if size > maxCellBytes {
            throw CliptabError(
                .limitExceeded, "\(what) is \(size) bytes; the limit is \(maxCellBytes) bytes")
        }
        // D-Bus strings cannot carry NUL, so a cell holding one could never be read back.
        if text.utf8.contains(0) {
            throw CliptabError(.invalidArgument, "\(what) contains a NUL character, which cannot be stored")
        }
    }
}
