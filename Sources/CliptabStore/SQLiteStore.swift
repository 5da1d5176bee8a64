// SPDX-License-Identifier: MIT
import CSQLite3
import CliptabCore
import Glibc

/// The cliptab store: an SQLite database in WAL mode, one transaction per change.
public final class SQLiteStore: Persistence {
    /// The schema version this build writes.
    public static let schemaVersion: Int64 = 3
    /// `PRAGMA application_id` of a cliptab store: "CTab".
    public static let applicationID: Int64 = 0x4354_6162
    /// The store file's name inside the data directory.
    public static let fileName = "cliptab.db"

    /// The store file's path.
    public let path: String
    let database: SQLiteDatabase

    private init(path: String, database: SQLiteDatabase) {
        self.path = path
        self.database = database
    }

    /// The data directory: `$XDG_DATA_HOME/cliptab`, or `~/.local/share/cliptab`.
    public static func defaultDirectory() throws -> String {
        if let data = environment("XDG_DATA_HOME"), data.hasPrefix("/") { return data + "/cliptab" }
        guard let home = environment("HOME"), !home.isEmpty else {
            throw CliptabError(
                .storageFailure, "neither XDG_DATA_HOME nor HOME is set: no place for the store")
        }
        return home + "/.local/share/cliptab"
    }

    /// Opens the store in `directory` (made 0700 if missing), creating a new store file (0600) if there is
    /// none, and loads every table.
    ///
    /// A file that is not a cliptab store, one of a newer schema, one that fails the integrity check, or an
    /// empty one is refused and left as it is (`UnusableStore`). A new store is built beside its final name and renamed into
    /// place once complete, so that cliptabd never leaves an empty or half-made store file: an empty one
    /// can only be a store that something else truncated.
    public static func open(directory: String, durability: Durability = .full) throws -> (
        SQLiteStore, Catalog
    ) {
        try makeDirectory(directory)
        // A read-only directory would let the store open and then fail every change: refuse
        // it at once, with a message that says why.
        if access(directory, W_OK) != 0 {
            throw storageError(
                "the data directory \(directory) is read-only, but cliptabd must write its store there"
                    + " (make it writable, or use another data directory)", errno)
        }
        let path = directory + "/" + fileName
        switch fileSize(path) {
        case nil:
            try create(path, directory: directory)
        case 0?:
            throw UnusableStore(
                path: path,
                "\(path) is empty: cliptabd never leaves its store empty, so it was probably truncated; it was left untouched — restore a backup or move it away to start a new store"
            )
        default:
            break
        }
        let database: SQLiteDatabase
        do {
            database = try SQLiteDatabase.open(path: path, create: false)
        } catch {
            throw CliptabError(.storageFailure, "\(error)")
        }
        if database.isReadOnly {
            throw CliptabError(
                .storageFailure,
                "the store file \(path) is read-only, but cliptabd must write to it (make it writable by its owner)"
            )
        }
        let store = SQLiteStore(path: path, database: database)
        try store.check()
        // Only a file that passed as a cliptab store is ours to restrict (with the WAL files
        // that reading it in WAL mode may just have made with its old mode).
        for suffix in ["", "-wal", "-shm"] { chmod(path + suffix, 0o600) }
        try store.configure(durability)
        let version = try store.version()
        if version == 0 {
            try store.createSchema()
        } else if version < schemaVersion {
            try store.migrate(from: version)
        }
        return (store, try store.load())
    }

    /// Builds a new, empty store at `path`: under a temporary name first (0600, so that the
    /// WAL files copy that mode), closed so that the file alone holds the schema, then
    /// renamed into place.
    private static func create(_ path: String, directory: String) throws {
        let temporary = path + ".new"
        let suffixes = ["", "-wal", "-shm", "-journal"]
        // Left over from a start that died while creating: never a store of anyone's.
        for suffix in suffixes { unlink(temporary + suffix) }
        let fd = Glibc.open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if fd < 0 { throw storageError("cannot create the store file \(temporary)", errno) }
        Glibc.close(fd)
        do {
            let database: SQLiteDatabase
            do {
                database = try SQLiteDatabase.open(path: temporary, create: false)
            } catch {
                throw CliptabError(.storageFailure, "\(error)")
            }
            let store = SQLiteStore(path: temporary, database: database)
            try store.configure(.full)
            try store.createSchema()
            store.close()
            // Closing copies the log into the file; a log left behind means it could not.
            if fileSize(temporary + "-wal") != nil || (fileSize(temporary) ?? 0) == 0 {
                throw CliptabError(
                    .storageFailure, "cannot complete the new store \(temporary) (is the disk full?)")
            }
            guard rename(temporary, path) == 0 else {
                throw storageError("cannot move the new store \(temporary) to \(path)", errno)
            }
        } catch {
            for suffix in suffixes { unlink(temporary + suffix) }
            throw error
        }
        // The rename itself must survive a power loss.
        let directoryDescriptor = Glibc.open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directoryDescriptor >= 0 {
            fsync(directoryDescriptor)
            Glibc.close(directoryDescriptor)
        }
    }

    /// Wraps an SQLite error as a storage failure naming the store file.
    func failure(_ error: Error, _ doing: String) -> CliptabError {
        CliptabError(.storageFailure, "\(doing) in \(path) failed: \(error)")
    }

    private func version() throws -> Int64 {
        do { return try database.integer("PRAGMA user_version") ?? 0 } catch {
            throw failure(error, "reading the schema version")
        }
    }

    /// Refuses files that are not cliptab stores, newer schemas and damaged files, before
    /// anything is written to them.
    private func check() throws {
        let application: Int64
        let version: Int64
        do {
            application = try database.integer("PRAGMA application_id") ?? 0
            version = try database.integer("PRAGMA user_version") ?? 0
        } catch let error as SQLiteError where error.isNotADatabase {
            throw UnusableStore(
                path: path,
                "\(path) is not a cliptab store (not an SQLite database); it was left untouched — move it away to start a new store"
            )
        } catch let error as SQLiteError where error.isCorrupt {
            throw UnusableStore(
                path: path,
                "\(path) is damaged (\(error)); it was left untouched — restore a backup or move it away to start a new store"
            )
        } catch {
            throw failure(error, "reading the store header")
        }
        if application != Self.applicationID {
            let objects = (try? database.integer("SELECT count(*) FROM sqlite_master")) ?? 0
            if application != 0 || objects > 0 {
                throw UnusableStore(
                    path: path,
                    "\(path) is an SQLite database of another program (application id \(application)), not a cliptab store; it was left untouched"
                )
            }
        }
        if version > Self.schemaVersion {
            throw UnusableStore(
                path: path,
                "\(path) has schema version \(version), newer than this cliptabd understands (\(Self.schemaVersion)); upgrade cliptab, or move the file away"
            )
        }
        let verdict: String
        do {
            verdict = try database.text("PRAGMA quick_check") ?? "no answer"
        } catch {
            throw UnusableStore(
                path: path, "\(path) is damaged and cannot be checked: \(error); it was left untouched")
        }
        if verdict != "ok" {
            throw UnusableStore(
                path: path, "\(path) failed its integrity check (\(verdict)); it was left untouched")
        }
    }

    private func configure(_ durability: Durability) throws {
        do {
            let mode = try database.text("PRAGMA journal_mode=WAL")
            if mode != "wal" {
                throw CliptabError(
                    .storageFailure, "\(path): the store needs WAL mode, SQLite answered \(mode ?? "nothing")"
                )
            }
            try database.execute(
                "PRAGMA synchronous=\(durability == .full ? "FULL" : "NORMAL"); PRAGMA busy_timeout=2000;"
                    // Interior pages of a million-row table stay cached, so that a change
                    // does not re-read its path from the file; the cache grows only as used.
                    + " PRAGMA cache_size=-16384")
        } catch let error as CliptabError {
            throw error
        } catch {
            throw failure(error, "configuring the store")
        }
    }

    /// Reads every table, section and row into a catalog.
    private func load() throws -> Catalog {
        do {
            let counterQuery = try database.statement(
                "SELECT next_row, next_section, next_table FROM counters")
            var counters = Counters()
            if try counterQuery.step() {
                counters = Counters(
                    nextRowID: UInt64(counterQuery.int64(0)), nextSectionID: UInt64(counterQuery.int64(1)),
                    nextTableID: UInt64(counterQuery.int64(2)))
            }
            counterQuery.reset()

            var tables: [UInt64: Table] = [:]
            let tableQuery = try database.statement(
                "SELECT id, name, revision, actions, secret, templates FROM tables")
            while try tableQuery.step() {
                let record = TableRecord(
                    id: UInt64(tableQuery.int64(0)), name: tableQuery.text(1),
                    revision: UInt64(bitPattern: tableQuery.int64(2)),
                    allowedActions: ActionSet(rawValue: UInt8(truncatingIfNeeded: tableQuery.int64(3))),
                    isSecret: tableQuery.int64(4) != 0, isTemplates: tableQuery.int64(5) != 0)
                tables[record.id] = Table(record: record)
            }
            tableQuery.reset()

            var sectionPlaces: [UInt64: (table: UInt64, index: Int)] = [:]
            let sectionQuery = try database.statement(
                "SELECT id, table_id, key, header, footer FROM sections ORDER BY table_id, key")
            while try sectionQuery.step() {
                let tableID = UInt64(sectionQuery.int64(1))
                guard tables[tableID] != nil else { continue }
                let section = Section(
                    id: UInt64(sectionQuery.int64(0)), key: sectionQuery.int64(2),
                    header: sectionQuery.text(3),
                    footer: sectionQuery.text(4))
                sectionPlaces[section.id] = (tableID, tables[tableID]!.sections.count)
                tables[tableID]!.sections.append(section)
            }
            sectionQuery.reset()

            // Names first, so that the row scan can note where each named row is.
            var namedRows: [UInt64: (table: UInt64, name: String)] = [:]
            let nameQuery = try database.statement("SELECT row_id, table_id, name FROM row_names")
            while try nameQuery.step() {
                namedRows[UInt64(nameQuery.int64(0))] = (UInt64(nameQuery.int64(1)), nameQuery.text(2))
            }
            nameQuery.reset()

            // Rows come clustered by section and key: collect one section's rows, then
            // hand them over, so the catalog is not looked up per row.
            let rowQuery = try database.statement("SELECT section_id, key, id, text FROM rows")
            var currentSection: UInt64 = 0
            var pending = RowList()
            func flush() {
                if let place = sectionPlaces[currentSection], !pending.isEmpty {
                    tables[place.table]!.sections[place.index].rows = pending
                }
                pending = RowList()
            }
            while try rowQuery.step() {
                let sectionID = UInt64(rowQuery.int64(0))
                if sectionID != currentSection {
                    flush()
                    currentSection = sectionID
                }
                let row = Row(id: UInt64(rowQuery.int64(2)), key: rowQuery.int64(1), text: rowQuery.text(3))
                pending.append(row)
                if !namedRows.isEmpty, let named = namedRows[row.id], tables[named.table] != nil {
                    tables[named.table]!.names.setName(
                        named.name, at: RowNameIndex.Place(rowID: row.id, sectionID: sectionID, key: row.key))
                }
            }
            flush()
            rowQuery.reset()
            return Catalog(tables: Array(tables.values), counters: counters)
        } catch let error as SQLiteError where error.isCorrupt {
            throw UnusableStore(
                path: path,
                "\(path) is damaged (\(error)); it was left untouched — restore a backup or move it away to start a new store"
            )
        } catch {
            throw failure(error, "loading the store")
        }
    }

    /// Closes the store: the write-ahead log is copied into the store file and removed, so
    /// that the file alone holds everything; later commits throw `StorageFailure`.
    public func close() {
        database.close()
    }

    /// The `synchronous` setting of the store's own connection, as SQLite reports it: 0 OFF,
    /// 1 NORMAL, 2 FULL, 3 EXTRA (the setting is per connection, so only this one can tell).
    package func synchronousLevel() throws -> Int64 {
        do {
            return try database.integer("PRAGMA synchronous") ?? -1
        } catch {
            throw failure(error, "reading the synchronous setting")
        }
    }

    /// Makes the next `count` commits fail inside SQLite (a real rolled-back COMMIT).
    package func injectCommitFailures(_ count: Int) {
        database.injectCommitFailures(count)
    }

    /// Writes `writes` in one transaction; on any failure rolls back and throws
    /// `StorageFailure`, leaving the file as it was.
    public func commit(_ writes: [StoreWrite]) throws {
        // Prepared once and reused: sqlite3_exec would parse BEGIN and COMMIT on every change,
        // a tenth of a single-row change's CPU time.
        do {
            try database.statement("BEGIN IMMEDIATE").run([])
        } catch {
            throw failure(error, "starting a transaction")
        }
        do {
            for write in writes { try perform(write) }
            try database.statement("COMMIT").run([])
        } catch {
            try? database.execute("ROLLBACK")
            // Only an I/O error can strike after the whole transaction reached the log.
            let mayRemain = (error as? SQLiteError)?.isIOError ?? false
            if sealLog() || !mayRemain { throw failure(error, "saving the change") }
            throw CliptabError(
                .storageFailure,
                "saving the change in \(path) failed: \(error); the store could not make sure that the"
                    + " failed change is gone for good, so it may come back when cliptabd restarts")
        }
    }

    /// After a failed commit, writes a small transaction that changes nothing (it rewrites
    /// the schema version), so that the failed one can never count as committed; true when
    /// that worked.
    ///
    /// When COMMIT fails after SQLite wrote the whole transaction to the log (the sync of
    /// the log failed), the frames are on disk with a valid commit frame. SQLite ignores them
    /// while it runs, but after a crash its recovery of the log would find them and bring the
    /// refused change back. The next transaction is written over them, and the log's running
    /// checksums then end the recovery before the rest of the failed transaction.
    private func sealLog() -> Bool {
        do {
            try database.execute("BEGIN IMMEDIATE; PRAGMA user_version = \(Self.schemaVersion); COMMIT")
            return true
        } catch {
            try? database.execute("ROLLBACK")
            return false
        }
    }

    private func run(_ sql: String, _ values: [SQLiteValue]) throws {
        try database.statement(sql).run(values)
    }

    private func perform(_ write: StoreWrite) throws {
        func id(_ value: UInt64) -> SQLiteValue { .integer(Int64(bitPattern: value)) }
        switch write {
        case .createTable(let record):
            try run(
                "INSERT INTO tables(id, name, revision, actions, secret, templates) VALUES (?, ?, ?, ?, ?, ?)",
                [
                    id(record.id), .text(record.name), id(record.revision),
                    .integer(Int64(record.allowedActions.rawValue)),
                    .integer(record.isSecret ? 1 : 0), .integer(record.isTemplates ? 1 : 0),
                ])
        case .updateTable(let record):
            // An UPDATE of the changed columns touches one page; REPLACE would delete and
            // re-insert the row and its name index entry. Every content change bumps the
            // revision, so the name (whose unique index is rewritten whenever an UPDATE sets
            // it, changed or not) is only set by a rename: one page less per change.
            try run(
                "UPDATE tables SET revision = ?, actions = ?, secret = ?, templates = ? WHERE id = ?",
                [
                    id(record.revision), .integer(Int64(record.allowedActions.rawValue)),
                    .integer(record.isSecret ? 1 : 0), .integer(record.isTemplates ? 1 : 0), id(record.id),
                ])
            try run(
                "UPDATE tables SET name = ?1 WHERE id = ?2 AND name IS NOT ?1",
                [.text(record.name), id(record.id)])
        case .dropTable(let tableID):
            try run(
                "DELETE FROM rows WHERE section_id IN (SELECT id FROM sections WHERE table_id = ?)",
                [id(tableID)])
            try run("DELETE FROM sections WHERE table_id = ?", [id(tableID)])
            try run("DELETE FROM tables WHERE id = ?", [id(tableID)])
        case .insertSection(let tableID, let sectionID, let key, let header, let footer):
            try run(
                "INSERT INTO sections(id, table_id, key, header, footer) VALUES (?, ?, ?, ?, ?)",
                [id(sectionID), id(tableID), .integer(key), .text(header), .text(footer)])
        case .setTitles(_, let sectionID, let header, let footer):
            try run(
                "UPDATE sections SET header = ?, footer = ? WHERE id = ?",
                [.text(header), .text(footer), id(sectionID)])
        case .rekeySection(_, let sectionID, let key):
            try run("UPDATE sections SET key = ? WHERE id = ?", [.integer(key), id(sectionID)])
        case .deleteSections(_, let sectionIDs):
            for sectionID in sectionIDs {
                try run("DELETE FROM rows WHERE section_id = ?", [id(sectionID)])
                try run("DELETE FROM sections WHERE id = ?", [id(sectionID)])
            }
        case .insertRow(_, let sectionID, let row):
            try run(
                "INSERT INTO rows(section_id, key, id, text) VALUES (?, ?, ?, ?)",
                [id(sectionID), .integer(row.key), id(row.id), .text(row.text)])
        case .setText(_, let sectionID, let rowID, let key, let text):
            try run(
                "UPDATE rows SET text = ? WHERE section_id = ? AND key = ? AND id = ?",
                [.text(text), id(sectionID), .integer(key), id(rowID)])
        case .moveRow(_, let fromSection, let oldKey, let rowID, let toSection, let key):
            try run(
                "UPDATE rows SET section_id = ?, key = ? WHERE section_id = ? AND key = ? AND id = ?",
                [id(toSection), .integer(key), id(fromSection), .integer(oldKey), id(rowID)])
        case .deleteRows(_, let sectionID, let rowIDs, let keys):
            for (rowID, key) in zip(rowIDs, keys) {
                try run(
                    "DELETE FROM rows WHERE section_id = ? AND key = ? AND id = ?",
                    [id(sectionID), .integer(key), id(rowID)])
            }
        case .setRowName(let tableID, _, let rowID, _, let name):
            if name.isEmpty {
                try run("DELETE FROM row_names WHERE row_id = ?", [id(rowID)])
            } else {
                // An upsert on the row: a name another row holds still violates the unique
                // index, loudly (the model refuses that before it gets here).
                try run(
                    "INSERT INTO row_names(row_id, table_id, name) VALUES (?, ?, ?)"
                        + " ON CONFLICT(row_id) DO UPDATE SET name = excluded.name",
                    [id(rowID), id(tableID), .text(name)])
            }
        case .setCounters(let counters):
            try run(
                "UPDATE counters SET next_row = ?, next_section = ?, next_table = ?",
                [id(counters.nextRowID), id(counters.nextSectionID), id(counters.nextTableID)])
        }
    }
}
