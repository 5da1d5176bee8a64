// SPDX-License-Identifier: MIT
import CliptabCore
import CliptabStore
import Glibc
import TestSupport
import Testing

/// What `SQLiteStore.open` refuses, and what it leaves behind: a refused file keeps every
/// byte and its mode; the directory and file it makes are the user's alone.
@Suite("Opening the store")
struct OpenCheckTests {
    /// The bytes of the file at `path`.
    static func bytes(_ path: String) throws -> [UInt8] {
        guard let file = fopen(path, "rb") else { throw FixtureError("cannot read \(path)") }
        defer { fclose(file) }
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count == 0 { break }
            result += buffer[0..<count]
        }
        return result
    }

    /// Writes `bytes` to a new file at `path` with `mode`.
    static func write(_ bytes: [UInt8], to path: String, mode: mode_t = 0o644) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode)
        guard fd >= 0 else { throw FixtureError("cannot create \(path)") }
        defer { close(fd) }
        guard bytes.withUnsafeBytes({ Glibc.write(fd, $0.baseAddress, $0.count) }) == bytes.count else {
            throw FixtureError("short write to \(path)")
        }
        fchmod(fd, mode)
    }

    /// The names in `directory`, sorted.
    static func files(in directory: String) -> [String] {
        guard let stream = opendir(directory) else { return [] }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// The permission bits of `path`.
    static func mode(_ path: String) -> mode_t? {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o7777 : nil
    }

    /// Expects opening `directory` to be refused as an unusable store whose message contains
    /// each of `parts`, leaving the store file's bytes and mode as they were.
    static func expectRefusal(
        _ directory: TemporaryDirectory, mentioning parts: [String],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let path = directory.appending(SQLiteStore.fileName)
        let original = try bytes(path)
        let originalMode = mode(path)
        do {
            _ = try SQLiteStore.open(directory: directory.path)
            Issue.record("the store was opened", sourceLocation: sourceLocation)
        } catch let error as UnusableStore {
            #expect(error.path == path, sourceLocation: sourceLocation)
            for part in [path] + parts {
                #expect(
                    error.message.contains(part), "\"\(error.message)\" lacks \"\(part)\"",
                    sourceLocation: sourceLocation)
            }
        }
        #expect(try bytes(path) == original, "the refused file was changed", sourceLocation: sourceLocation)
        #expect(
            files(in: directory.path) == [SQLiteStore.fileName],
            "files left behind: \(files(in: directory.path))",
            sourceLocation: sourceLocation)
        #expect(
            mode(path) == originalMode, "the refused file's mode was changed", sourceLocation: sourceLocation)
    }

    /// A store in `directory` with enough rows to fill many pages, closed again.
    static func makeStore(_ directory: TemporaryDirectory, rows: Int = 2000) throws {
        let (store, catalog) = try SQLiteStore.open(directory: directory.path)
        let service = TableService(catalog: catalog, persistence: store, announce: { _, _ in })
        try service.createTable("t")
        try service.insertRows(
            "t", section: 0, row: 0,
            texts: (0..<rows).map { "row \($0) " + String(repeating: "x", count: 150) })
    }

    /// A file of garbage bytes is refused, named, and left byte for byte as it was.
    @Test("A file of garbage bytes is refused, named, and left byte for byte as it was")
    func garbageFile() throws {
        let directory = try TemporaryDirectory(prefix: "cliptab-open")
        var rng = SeededRandom("OpenCheckTests.garbageFile", fixed: 1)
        try Self.write(
            (0..<10_000).map { _ in UInt8(truncatingIfNeeded: rng.next()) },
            to: directory.appending("cliptab.db"))
        try Self.expectRefusal(directory, mentioning: ["not a cliptab store"])
    }

    /// A short text file is refused and left as it was.
    @Test("A short text file is refused and left as it was")
    func textFile() throws {
        let directory = try TemporaryDirectory(prefix: "cliptab-open")
        try Self.write(Array("my notes\n".utf8), to: directory.appending("cliptab.db"), mode: 0o640)
        try Self.expectRefusal(directory, mentioning: ["not a cliptab store"])
    }

    /// A store truncated to a few pages is refused and left as it was.
    @Test("A store truncated to a few pages is refused and left as it was")
    func truncatedStore() throws {
        let directory = try TemporaryDirectory(prefix: "cliptab-open")
        try Self.makeStore(directory)
        let path = directory.appending("cliptab.db")
        let whole = try Self.bytes(path)
        #expect(whole.count > 20 * 4096)
        try Self.write(Array(whole.prefix(3 * 4096)), to: path, mode: 0o600)
        try Self.expectRefusal(directory, mentioning: ["left untouched"])
    }

    /// An SQLite database of another program is refused and left as it was.
    @Test("An SQLite database of another program is refused and left as it was", arguments: [1234, 0])
    func foreignDatabase(applicationID: Int) throws {
        let directory = try TemporaryDirectory(prefix: "cliptab-open")
        let path = directory.appending("cliptab.db")
        do {
            let database = try SQLiteDatabase.open(path: path, create: true)
            try database.execute(
                """
                CREATE TABLE notes(id INTEGER PRIMARY KEY, body TEXT);
                INSERT INTO notes(body) VALUES ('keep me');
                PRAGMA application_id = \(applicationID);
                """)
        }
        chmod(path, 0o644)
        try Self.expectRefusal(directory, mentioning: ["another program", "application id \(applicationID)"])
    }

    /// A store of a newer schema version is refused as newer, and left as it was.
    @Test("A store of a newer schema version is refused as newer, and left as it was")
    func newerSchema() throws {
        let directory = try TemporaryDirectory(prefix: "cliptab-open")
        try Self.makeStore(directory, rows: 10)
        do {
            let database = try SQLiteDatabase.open(path: directory.appending("cliptab.db"), create: false)
            try database.execute("PRAGMA user_version = 99")
        }
        try Self.expectRefusal(directory, mentioning: ["newer", "99"])
    }

    /// A new store makes its directory 0700 and its files 0600.
    @Test("A new store makes its directory 0700 and its files 0600")
    func permissions() throws {
        let base = try TemporaryDirectory(prefix: "cliptab-open")
        let directory = base.appending("data/cliptab")
        let (store, catalog) = try SQLiteStore.open(directory: directory)
        #expect(Self.mode(directory) == 0o700)
        #expect(Self.mode(directory + "/cliptab.db") == 0o600)
        let service = TableService(catalog: catalog, persistence: store, announce: { _, _ in })
        try service.createTable("secret things")
        for suffix in ["-wal", "-shm"] {
            #expect(Self.mode(directory + "/cliptab.db" + suffix) == 0o600, "cliptab.db\(suffix)")
        }
        #expect(store.path == directory + "/cliptab.db")
    }

    /// A store file (and its WAL files) left readable by others is made 0600 again.
    @Test("A store file (and its WAL files) left readable by others is made 0600 again")
    func existingStoreFile() throws {
        let directory = try TemporaryDirectory(prefix: "cliptab-open")
        try Self.makeStore(directory, rows: 10)
        let path = directory.appending("cliptab.db")
        chmod(path, 0o644)
        let (store, catalog) = try SQLiteStore.open(directory: directory.path)
        try TableService(catalog: catalog, persistence: store, announce: { _, _ in }).createTable("more")
        for suffix in ["", "-wal", "-shm"] {
            #expect(Self.mode(path + suffix) == 0o600, "cliptab.db\(suffix)")
        }
    }

    /// An existing data directory open to others is closed to 0700: open to its group alone
    /// (0750, 0730), to others alone (0705, 0703), or to both (0755), so that a check
    /// weakened to one of them fails here.
    @Test(
        "An existing data directory open to others is closed to 0700",
        arguments: [0o755, 0o750, 0o730, 0o705, 0o703, 0o770] as [mode_t])
    func existingDirectory(mode: mode_t) throws {
        let directory = try TemporaryDirectory(prefix: "cliptab-open")
        chmod(directory.path, mode)
        _ = try SQLiteStore.open(directory: directory.path)
        #expect(Self.mode(directory.path) == 0o700, "\(String(mode, radix: 8))")
    }

    /// A data directory of another user is refused, named with its owner, and nothing is
    /// made in it (it was once used as it was: the tests run as root, who may write there).
    @Test("A data directory of another user is refused, and left empty")
    func directoryOfAnotherUser() throws {
        let directory = try TemporaryDirectory(prefix: "cliptab-open")
        let other: uid_t = geteuid() == 65534 ? 65533 : 65534
        #expect(chown(directory.path, other, other) == 0)
        for open in [
            { _ = try SQLiteStore.open(directory: directory.path) },
            { _ = try StoreLock.take(directory: directory.path) },
        ] {
            #expect {
                try open()
            } throws: { error in
                let error = error as? CliptabError
                return error?.code == .storageFailure && error?.message.contains(directory.path) == true
                    && error?.message.contains("belongs to uid \(other)") == true
            }
        }
        #expect(Self.files(in: directory.path).isEmpty)
        #expect(Self.mode(directory.path) == 0o700)
        chown(directory.path, geteuid(), getegid())
    }

    /// A directory that cannot be made is StorageFailure naming it.
    @Test("A directory that cannot be made is StorageFailure naming it")
    func uncreatableDirectory() throws {
        let base = try TemporaryDirectory(prefix: "cliptab-open")
        try Self.write(Array("a file".utf8), to: base.appending("blocker"))
        for directory in [base.appending("blocker/cliptab"), base.appending("blocker")] {
            #expect {
                _ = try SQLiteStore.open(directory: directory)
            } throws: { error in
                let error = error as? CliptabError
                return error?.code == .storageFailure
                    && error?.message.contains(base.appending("blocker")) == true
            }
        }
        #expect(try Self.bytes(base.appending("blocker")) == Array("a file".utf8))
    }
}
