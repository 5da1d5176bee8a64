// SPDX-License-Identifier: MIT

/// The schema: made whole for a new store, or brought up to date step by step for an older
/// one, each in one transaction.
extension SQLiteStore {
    /// The tables of schema version 1.
    ///
    /// Rows are clustered by (section, key, id), so that loading reads them in order and every write
    /// addresses a row by the place the model already knows.
    static let version1 = """
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
        """

    /// What schema version 2 adds: row names, in a table of their own.
    ///
    /// Apart from the rows, so that a move (an update of a row's section and key) never
    /// touches them. A trigger drops a row's name with the
    /// row, whichever write deletes it (a row, a section, a table, a replacing import).
    /// No `IF NOT EXISTS`: a store of version 1 has none of these, so anything in the way is
    /// an error that rolls the whole migration back.
    static let version2 = """
        CREATE TABLE row_names(
            row_id INTEGER PRIMARY KEY, table_id INTEGER NOT NULL, name TEXT NOT NULL,
            UNIQUE(table_id, name));
        CREATE TRIGGER row_names_follow_rows AFTER DELETE ON rows
            BEGIN DELETE FROM row_names WHERE row_id = OLD.id; END;
        """

    /// What schema version 3 adds: a table's templates flag (API version 3), off for every
    /// table there is.
    static let version3 = """
        ALTER TABLE tables ADD COLUMN templates INTEGER NOT NULL DEFAULT 0;
        """

    /// Makes the whole current schema in a new, empty store.
    func createSchema() throws {
        try transaction(
            Self.version1 + Self.version2 + Self.version3 + "PRAGMA application_id = \(Self.applicationID);",
            doing: "creating the schema")
    }

    /// Brings a store of schema `version` (older than this build's) up to date, in place and
    /// in one transaction: either the store is fully migrated or it is left as it was.
    func migrate(from version: Int64) throws {
        var steps = ""
        if version < 2 { steps += Self.version2 }
        if version < 3 { steps += Self.version3 }
        try transaction(steps, doing: "migrating the store from schema version \(version)")
    }

    /// Runs `sql` and sets the current schema version, in one transaction.
    private func transaction(_ sql: String, doing: String) throws {
        do {
            try database.execute(
                "BEGIN IMMEDIATE;\n" + sql + "\nPRAGMA user_version = \(Self.schemaVersion);\nCOMMIT;")
        } catch {
            try? database.execute("ROLLBACK")
            throw failure(error, doing)
        }
    }
}
