// SPDX-License-Identifier: MIT
import CSQLite3

/// An SQLite failure: the result code, the library's message, and what was being done.
public struct SQLiteError: Error, Equatable, CustomStringConvertible {
    /// The (extended) SQLite result code.
    public let code: Int32
    /// What failed, with SQLite's own message.
    public let message: String

    /// "message (SQLite code N)".
    public var description: String { "\(message) (SQLite code \(code))" }

    /// True for "file is not a database" (SQLITE_NOTADB).
    public var isNotADatabase: Bool { code & 0xFF == SQLITE_NOTADB }

    /// True for a damaged database (SQLITE_CORRUPT).
    public var isCorrupt: Bool { code & 0xFF == SQLITE_CORRUPT }

    /// True for a failed read, write or sync of a file (SQLITE_IOERR).
    public var isIOError: Bool { code & 0xFF == SQLITE_IOERR }
}

/// An open SQLite database connection.
///
/// The corresponding C type is `sqlite3`.
public final class SQLiteDatabase {
    private let handle: OpaquePointer
    private var statements: [String: SQLiteStatement] = [:]
    private var commitFailuresToInject = 0
    /// True once `close()` ran: the handle is gone, every call throws.
    public private(set) var isClosed = false

    private init(handle: OpaquePointer) {
        self.handle = handle
    }

    /// Opens (or creates, when `create`) the database file at `path`.
    public static func open(path: String, create: Bool) throws -> SQLiteDatabase {
        var raw: OpaquePointer?
        var flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX
        if create { flags |= SQLITE_OPEN_CREATE }
        let status = sqlite3_open_v2(path, &raw, flags, nil)
        guard status == SQLITE_OK, let raw else {
            let message = raw.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            // sqlite3_open_v2 hands out a handle even on failure; it must still be closed.
            if let raw { sqlite3_close_v2(raw) }
            throw SQLiteError(code: status, message: "cannot open \(path): \(message)")
        }
        sqlite3_extended_result_codes(raw, 1)
        let database = SQLiteDatabase(handle: raw)
        return database
    }

    deinit {
        close()
    }

    /// Closes the connection: the statements are finalized, and in WAL mode the last
    /// connection to close copies the log into the database file and removes the log.
    ///
    /// Every later call throws.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    /// True when SQLite opened the file read-only (it does so silently when the file or its
    /// filesystem cannot be written).
    public var isReadOnly: Bool { !isClosed && sqlite3_db_readonly(handle, "main") == 1 }

    /// The error for a call on a closed connection.
    private var closedError: SQLiteError {
        SQLiteError(code: SQLITE_MISUSE, message: "the database connection is closed")
    }

    /// The error for result `code` of the last call, naming `context`.
    func error(_ code: Int32, _ context: String) -> SQLiteError {
        SQLiteError(code: code, message: "\(context): \(String(cString: sqlite3_errmsg(handle)))")
    }

    /// Runs one or more SQL statements that return nothing.
    public func execute(_ sql: String) throws {
        if isClosed { throw closedError }
        var message: UnsafeMutablePointer<CChar>?
        let status = sqlite3_exec(handle, sql, nil, nil, &message)
        if status != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? "unknown error"
            sqlite3_free(message)
            throw SQLiteError(code: status, message: "\(sql.prefix(60)): \(text)")
        }
    }

    /// A prepared statement for `sql`, cached for reuse on this connection.
    public func statement(_ sql: String) throws -> SQLiteStatement {
        if isClosed { throw closedError }
        if let cached = statements[sql] {
            cached.reset()
            return cached
        }
        var raw: OpaquePointer?
        let status = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &raw, nil)
        guard status == SQLITE_OK, let raw else { throw error(status, "prepare \(sql.prefix(60))") }
        let statement = SQLiteStatement(handle: raw, database: self)
        statements[sql] = statement
        return statement
    }

    /// The single integer that `sql` yields (for example a pragma), or nil when it yields no row.
    public func integer(_ sql: String) throws -> Int64? {
        let statement = try statement(sql)
        defer { statement.reset() }
        return try statement.step() ? statement.int64(0) : nil
    }

    /// The single text that `sql` yields, or nil when it yields no row.
    public func text(_ sql: String) throws -> String? {
        let statement = try statement(sql)
        defer { statement.reset() }
        return try statement.step() ? statement.text(0) : nil
    }

    /// Makes the next `count` commits fail as a real SQLite commit failure (the commit
    /// hook turns COMMIT into ROLLBACK), for tests of the failure path.
    public func injectCommitFailures(_ count: Int) {
        commitFailuresToInject = count
        if count == 0 {
            sqlite3_commit_hook(handle, nil, nil)
            return
        }
        sqlite3_commit_hook(
            handle,
            { context in
                guard let context else { return 0 }
                let database = Unmanaged<SQLiteDatabase>.fromOpaque(context).takeUnretainedValue()
                if database.commitFailuresToInject > 0 {
                    database.commitFailuresToInject -= 1
                    return 1
                }
                return 0
            }, Unmanaged.passUnretained(self).toOpaque())
    }
}

/// A prepared SQL statement.
///
/// The corresponding C type is `sqlite3_stmt`.
public final class SQLiteStatement {
    private let handle: OpaquePointer
    private unowned let database: SQLiteDatabase

    fileprivate init(handle: OpaquePointer, database: SQLiteDatabase) {
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

/// A value bound to a statement parameter.
public enum SQLiteValue {
    /// A 64-bit integer.
    case integer(Int64)
    /// A UTF-8 text.
    case text(String)
}
