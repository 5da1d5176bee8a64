// SPDX-License-Identifier: MIT
import CSQLite3

/// A prepared SQL statement.
///
/// The corresponding C type is `sqlite3_stmt`.
public final class SQLiteStatement {
    private let handle: OpaquePointer
    private unowned let database: SQLiteDatabase

    /// Wraps a prepared `handle`, which it finalizes; only `SQLiteDatabase.prepare` makes one.
    init(handle: OpaquePointer, database: SQLiteDatabase) {
        self.handle = handle
        self.database = database
    }

    deinit { sqlite3_finalize(handle) }

    /// Resets the statement and clears its bindings.
    public func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Binds an integer to parameter `index` (1-based).
    public func bind(_ index: Int32, _ value: Int64) throws {
        let status = sqlite3_bind_int64(handle, index, value)
        if status != SQLITE_OK { throw database.error(status, "bind") }
    }

    /// Binds a text to parameter `index` (1-based); SQLite copies it.
    public func bind(_ index: Int32, _ value: String) throws {
        // SQLITE_TRANSIENT is a cast macro that Swift cannot import.
        let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)
        var text = value
        let status = text.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                // An empty buffer may have no base address; a zero-length blob of text stands in.
                guard let base = chars.baseAddress else {
                    return sqlite3_bind_text(handle, index, "", 0, transient)
                }
                return sqlite3_bind_text(handle, index, base, Int32(chars.count), transient)
            }
        }
        if status != SQLITE_OK { throw database.error(status, "bind") }
    }

    /// Binds each value in order, starting at parameter 1.
    public func bind(_ values: [SQLiteValue]) throws {
        for (offset, value) in values.enumerated() {
            switch value {
            case .integer(let number): try bind(Int32(offset + 1), number)
            case .text(let text): try bind(Int32(offset + 1), text)
            }
        }
    }

    /// Steps once: true when a row is available, false when done.
    public func step() throws -> Bool {
        let status = sqlite3_step(handle)
        if status == SQLITE_ROW { return true }
        if status == SQLITE_DONE { return false }
        throw database.error(status, "step")
    }

    /// Runs the statement with `values` bound, to completion.
    public func run(_ values: [SQLiteValue]) throws {
        reset()
        try bind(values)
        while try step() {}
        sqlite3_reset(handle)
    }

    /// The integer in column `index` (0-based) of the current row.
    public func int64(_ index: Int32) -> Int64 { sqlite3_column_int64(handle, index) }

    /// The text in column `index` (0-based) of the current row.
    public func text(_ index: Int32) -> String {
        guard let bytes = sqlite3_column_text(handle, index) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }
}
