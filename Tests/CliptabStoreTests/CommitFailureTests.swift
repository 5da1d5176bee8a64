// SPDX-License-Identifier: MIT
import CliptabCore
import CliptabStore
import TestSupport
import Testing

/// A commit that fails inside SQLite: the call throws StorageFailure, memory and file keep
/// the state from before it, and the store goes on working.
@Suite("Failed commits in the store")
struct CommitFailureTests {
    /// The calls that fail in turn; each changes something different.
    enum Call: String, CaseIterable {
        /// Creates table "u".
        case createTable
        /// Inserts two rows (and uses two row ids).
        case insertRows
        /// Moves a row across sections.
        case moveRow
        /// Moves a section.
        case moveSection
        /// Changes a cell's text.
        case setCell
        /// Deletes a section with its rows.
        case deleteSections
        /// Deletes the rows that contain "a".
        case deleteWhere
        /// Replaces the table's content by an import.
        case importTable
        /// Renames the table.
        case rename
        /// Changes the allowed actions (a setting: no revision, no event).
        case allowedActions

        /// Performs the call on table "t" of `service`.
        func perform(on service: TableService) throws {
            switch self {
            case .createTable: try service.createTable("u")
            case .insertRows: try service.insertRows("t", section: 0, row: 1, texts: ["x", "y"])
            case .moveRow: try service.moveRow("t", from: (0, 0), to: (1, 0))
            case .moveSection: try service.moveSection("t", from: 0, to: 1)
            case .setCell: try service.setCell("t", section: 1, row: 0, text: "changed")
            case .deleteSections: try service.deleteSections("t", [0])
            case .deleteWhere: _ = try service.deleteWhere("t", op: "contains", operand: "a", dryRun: false)
            case .importTable:
                _ = try service.importTable("t", format: "lines", data: "## N\nn\n", replace: true)
            case .rename: try service.renameTable("t", to: "renamed")
            case .allowedActions: try service.setAllowedActions("t", ["copy"])
            }
        }
    }

    /// A store in `directory` with table "t": sections ["a" "b" "c"] and "B" ["d"].
    static func populated(_ directory: TemporaryDirectory, tap: TableEventTap = TableEventTap()) throws
        -> (SQLiteStore, TableService)
    {
        let (store, catalog) = try SQLiteStore.open(directory: directory.path)
        let service = TableService(catalog: catalog, persistence: store, announce: tap.record)
        try service.createTable("t")
        try service.insertRows("t", section: 0, row: 0, texts: ["a", "b", "c"])
        try service.insertSection("t", at: -1, header: "B", footer: "")
        try service.insertRows("t", section: 1, row: 0, texts: ["d"])
        return (store, service)
    }

    /// Opens the store in `directory` again and returns what it loads.
    static func reload(_ directory: TemporaryDirectory) throws -> Catalog {
        try SQLiteStore.open(directory: directory.path).1
    }

    /// A failed call throws StorageFailure naming the store file; memory, events and file
    /// stay as before; the same call then succeeds on the same connection, durably.
    @Test(
        "A failed commit changes nothing, in memory or on disk; the call then succeeds",
        arguments: Call.allCases)
    func failedCommit(call: Call) throws {
        let directory = try TemporaryDirectory(prefix: "cliptab-commit")
        let tap = TableEventTap()
        var (store, service): (SQLiteStore?, TableService?) = try Self.populated(directory, tap: tap)
        let before = service!.catalog
        tap.clear()

        store!.injectCommitFailures(1)
        #expect {
            try call.perform(on: service!)
        } throws: { error in
            let error = error as? CliptabError
            return error?.code == .storageFailure && error?.message.contains(store!.path) == true
        }
        #expect(service!.catalog == before, "memory changed")
        #expect(tap.events.isEmpty, "a failed call sent events")
        #expect(try Self.reload(directory) == before, "the file changed")

        try call.perform(on: service!)
        #expect(service!.catalog != before)
        #expect(!tap.events.isEmpty || call == .allowedActions)
        let after = service!.catalog
        (store, service) = (nil, nil)
        #expect(try Self.reload(directory) == after, "the successful call was not saved")
    }

    /// After a failed commit and a restart, the file shows the state before the failed call
    /// and the reopened store takes the same call.
    @Test("After a failed commit and a reopen, the state is the one before; the next call succeeds")
    func failedCommitThenReopen() throws {
        let directory = try TemporaryDirectory(prefix: "cliptab-commit")
        var (store, service): (SQLiteStore?, TableService?) = try Self.populated(directory)
        let before = service!.catalog
        store!.injectCommitFailures(1)
        #expect(throws: CliptabError.self) {
            try service!.insertRows("t", section: 0, row: 0, texts: ["lost"])
        }
        (store, service) = (nil, nil)

        let (reopened, catalog) = try SQLiteStore.open(directory: directory.path)
        #expect(catalog == before)
        let next = TableService(catalog: catalog, persistence: reopened, announce: { _, _ in })
        let ids = try next.insertRows("t", section: 0, row: 0, texts: ["kept"])
        #expect(ids == [before.counters.nextRowID], "the failed call used no id")
        #expect(try next.cell(of: "t", section: 0, row: 0) == "kept")
        #expect(try Self.reload(directory) == next.catalog)
    }
}
