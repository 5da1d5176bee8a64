// SPDX-License-Identifier: MIT
import CSQLite3

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
    package func injectCommitFailures(_ count: Int) {
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
