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
