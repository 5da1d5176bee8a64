// SPDX-License-Identifier: MIT
import CliptabCore
import CliptabStore
import TestSupport
import Testing

/// Opening a store written by the release before row names (schema version 1) migrates it in
/// place, keeping every table, section, row, id, key, counter and revision.
///
/// The old store is made here with plain SQL that repeats, statement for statement, what the
/// version-1 store code wrote (its schema, pragmas and WAL mode), rather than with a committed
/// binary fixture: the text shows exactly what the old release left on disk, and it needs no
/// old build to regenerate.
@Suite("Schema migration")
struct MigrationTests {
    /// The schema and content of a version-1 store, as the release before row names wrote it.
    static let versionOneStore = """
        PRAGMA journal_mode=WAL;
        BEGIN IMMEDIATE;
        CREATE TABLE IF NOT EXISTS tables(
            id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, revision INTEGER NOT NULL,
            actions INTEGER NOT NULL, secret INTEGER NOT NULL);
        CREATE TABLE IF NOT EXISTS sections(
            id INTEGER PRIMARY KEY, table_id INTEGER NOT NULL, key INTEGER NOT NULL,
            header TEXT NOT NULL, footer TEXT NOT NULL);
        CREATE INDEX IF NOT EXISTS sections_by_table ON sections(table_id, key);
        CREATE TABLE IF NOT EXISTS rows(
            section_id INTEGER NOT NULL, key INTEGER NOT NULL, id INTEGER NOT NULL,
            text TEXT NOT NULL, PRIMARY KEY(section_id, key, id)) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS counters(
            one INTEGER PRIMARY KEY CHECK (one = 1), next_row INTEGER NOT NULL,
            next_section INTEGER NOT NULL, next_table INTEGER NOT NULL);
        INSERT OR IGNORE INTO counters VALUES (1, 1, 1, 1);
        PRAGMA application_id = 1129603426;
        PRAGMA user_version = 1;
        COMMIT;
        INSERT INTO tables VALUES (3, 'snippets', 41, 127, 0), (5, 'vault', 7, 1, 1);
        INSERT INTO sections VALUES (10, 3, 0, '', ''), (11, 3, 1024, 'Mail', 'end'), (12, 5, 0, 'pw', '');
        INSERT INTO rows VALUES (10, 0, 20, 'hello'), (10, 1024, 7, 'Kind regards,
        Ada
        '), (11, 512, 21, 'bye'), (12, 0, 22, 'hunter2');
        UPDATE counters SET next_row = 30, next_section = 13, next_table = 6;
        """

    @Test("A version-1 store opens migrated, with everything intact, and names work")
    func versionOneStoreIsMigrated() throws {
        let directory = try TemporaryDirectory(prefix: "cliptab-migrate")
        do {
            let database = try SQLiteDatabase.open(path: directory.appending("cliptab.db"), create: true)
            try database.execute(Self.versionOneStore)
            database.close()
        }
        let (store, catalog) = try SQLiteStore.open(directory: directory.path)
        #expect(catalog.counters == Counters(nextRowID: 30, nextSectionID: 13, nextTableID: 6))
        let snippets = try #require(catalog.tables["snippets"])
        #expect(
            snippets.record
                == TableRecord(id: 3, name: "snippets", revision: 41, allowedActions: .all, isSecret: false))
        try #require(snippets.sections.map(\.id) == [10, 11])
        #expect(snippets.sections[1].header == "Mail" && snippets.sections[1].footer == "end")
        #expect(
            snippets.sections[0].rows.rows
                == [Row(id: 20, key: 0, text: "hello"), Row(id: 7, key: 1024, text: "Kind regards,\nAda\n")])
        #expect(snippets.sections[1].rows.rows == [Row(id: 21, key: 512, text: "bye")])
        #expect(snippets.names.isEmpty)
        let vault = try #require(catalog.tables["vault"])
        #expect(
            vault.record.revision == 7 && vault.record.isSecret && vault.record.allowedActions.rawValue == 1)
        #expect(vault.sections.first?.rows.rows == [Row(id: 22, key: 0, text: "hunter2")])

        // Names work on the migrated store, and survive a reopen.
        let service = TableService(catalog: catalog, persistence: store, announce: { _, _ in })
        try service.setRowName("snippets", section: 0, row: 1, rowName: "sig")
        try service.moveRow("snippets", from: (0, 1), to: (1, 1))
        #expect(try service.findRow("snippets", rowName: "sig").id == 7)
        store.close()
        let (again, reloaded) = try SQLiteStore.open(directory: directory.path)
        defer { again.close() }
        let reopened = TableService(catalog: reloaded, persistence: again, announce: { _, _ in })
        let found = try reopened.findRow("snippets", rowName: "sig")
        #expect(found.path == IndexPath(section: 1, row: 1) && found.id == 7)
        #expect(reloaded.tables["snippets"]?.record.revision == 43)
        #expect(reloaded == service.catalog)
        let version = try SQLiteDatabase.open(path: directory.appending("cliptab.db"), create: false)
        #expect(try version.integer("PRAGMA user_version") == SQLiteStore.schemaVersion)
    }

    /// Schema 3 adds the templates flag: off for every migrated table, and once set it is on
    /// disk (a reopen reads it back).
    @Test("A migrated store keeps the templates flag")
    func templatesFlagAfterMigration() throws {
        let directory = try TemporaryDirectory(prefix: "cliptab-migrate")
        do {
            let database = try SQLiteDatabase.open(path: directory.appending("cliptab.db"), create: true)
            try database.execute(Self.versionOneStore)
            database.close()
        }
        let (store, catalog) = try SQLiteStore.open(directory: directory.path)
        #expect(catalog.tables.values.allSatisfy { !$0.record.isTemplates })
        let service = TableService(catalog: catalog, persistence: store, announce: { _, _ in })
        try service.setTemplates("snippets", true)
        #expect(try service.revision(of: "snippets") == 41)
        store.close()
        let (again, reloaded) = try SQLiteStore.open(directory: directory.path)
        defer { again.close() }
        #expect(reloaded.tables["snippets"]?.record.isTemplates == true)
        #expect(reloaded.tables["vault"]?.record.isTemplates == false)
        #expect(reloaded == service.catalog)
    }

    @Test("A migration that cannot complete leaves the version-1 store as it was")
    func failedMigrationChangesNothing() throws {
        let directory = try TemporaryDirectory(prefix: "cliptab-migrate")
        let path = directory.appending("cliptab.db")
        do {
            let database = try SQLiteDatabase.open(path: path, create: true)
            try database.execute(Self.versionOneStore)
            // A trigger of the name the migration uses makes it fail after it made its table:
            // that table must be rolled back with the rest.
            try database.execute(
                "CREATE TRIGGER row_names_follow_rows AFTER INSERT ON rows BEGIN SELECT 1; END")
            database.close()
        }
        #expect(throws: CliptabError.self) { _ = try SQLiteStore.open(directory: directory.path) }
        let database = try SQLiteDatabase.open(path: path, create: false)
        #expect(try database.integer("PRAGMA user_version") == 1)
        #expect(try database.integer("SELECT count(*) FROM sqlite_master WHERE name = 'row_names'") == 0)
        #expect(try database.integer("SELECT count(*) FROM rows") == 4)
    }
}
