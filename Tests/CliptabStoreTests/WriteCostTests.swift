// SPDX-License-Identifier: MIT
import CliptabCore
import CliptabStore
import TestSupport
import Testing

/// A persistence that passes every batch to the store and keeps it, to count its writes.
private final class CountingStore: Persistence {
    /// The store that makes each batch durable.
    let store: SQLiteStore
    /// Every batch committed so far.
    var batches: [[StoreWrite]] = []

    /// Counts the batches committed to `store`.
    init(_ store: SQLiteStore) { self.store = store }

    /// Commits `writes` to the store, then keeps them.
    func commit(_ writes: [StoreWrite]) throws {
        try store.commit(writes)
        batches.append(writes)
    }
}

/// The durability cost of a change: the SQL row writes of its transaction stay O(1) however
/// large the section, and re-spacing keys after many inserts at one place stays local.
@Suite("Writes per change")
struct WriteCostTests {
    /// The rows a batch writes (inserts, moves and re-keys, text changes, deletions); the
    /// table's own record and the id counters are one row each on top.
    static func rowWrites(_ batch: [StoreWrite]) -> Int {
        batch.reduce(0) { total, write in
            switch write {
            case .insertRow, .moveRow, .setText: total + 1
            case .deleteRows(_, _, let ids, _): total + ids.count
            default: total
            }
        }
    }

    /// One table "big" with one section of `rows` rows, over a store in `directory`.
    private static func bigTable(_ directory: TemporaryDirectory, rows: Int) throws -> (
        CountingStore, TableService
    ) {
        let (store, catalog) = try SQLiteStore.open(directory: directory.path, durability: .normal)
        let counting = CountingStore(store)
        let service = TableService(catalog: catalog, persistence: counting, announce: { _, _ in })
        try service.createTable("big")
        try service.insertRows("big", section: 0, row: 0, texts: (0..<rows).map { "row \($0)" })
        return (counting, service)
    }

    /// A single-row change in a 100,000-row section writes one row.
    @Test("A single-row change in a 100,000-row section writes one row")
    func singleRowChanges() throws {
        let directory = try TemporaryDirectory(prefix: "cliptab-cost")
        let (counting, service) = try Self.bigTable(directory, rows: 100_000)
        let changes: [(String, () throws -> Void)] = [
            ("move first to middle", { try service.moveRow("big", from: (0, 0), to: (0, 50_000)) }),
            ("move last to first", { try service.moveRow("big", from: (0, -1), to: (0, 0)) }),
            ("move to the neighbour", { try service.moveRow("big", from: (0, 500), to: (0, 501)) }),
            ("move to the end", { try service.moveRow("big", from: (0, 42), to: (0, -1)) }),
            (
                "move to a new section",
                {
                    try service.insertSection("big", at: -1, header: "", footer: "")
                    try service.moveRow("big", from: (0, 77_777), to: (1, 0))
                }
            ),
            ("insert in the middle", { try service.insertRow("big", section: 0, row: 30_000, text: "new") }),
            ("set a cell", { try service.setCell("big", section: 0, row: 60_000, text: "changed") }),
            ("delete a row", { try service.deleteRow("big", section: 0, row: 70_000) }),
        ]
        for (name, change) in changes {
            let before = counting.batches.count
            try change()
            let batch = try #require(counting.batches.last, "\(name): no batch written")
            #expect(counting.batches.count > before)
            #expect(Self.rowWrites(batch) == 1, "\(name): \(Self.rowWrites(batch)) row writes")
            #expect(batch.count <= 3, "\(name): \(batch.count) writes in all")
        }
        let expected = service.catalog
        #expect(try SQLiteStore.open(directory: directory.path).1 == expected)
    }

    /// 1,000 inserts at one position never rewrite more than a few dozen rows at once.
    @Test("1,000 inserts at one position never rewrite more than a few dozen rows at once")
    func insertsAtOnePosition() throws {
        let directory = try TemporaryDirectory(prefix: "cliptab-cost")
        let (counting, service) = try Self.bigTable(directory, rows: 100_000)
        // Second place, middle, just before the last row; a negative place counts from the end.
        for position in [1, 50_000, -2] {
            let first = counting.batches.count
            for index in 0..<1000 {
                let count = try #require(try service.sections(of: "big").first).rows
                let row = position < 0 ? count + position + 1 : position
                try service.insertRow("big", section: 0, row: Int32(row), text: "hot \(position) \(index)")
            }
            let writes = counting.batches[first...].map(Self.rowWrites)
            #expect(writes.count == 1000)
            let most = try #require(writes.max(), "at \(position): no batch written")
            #expect(most > 1, "at \(position): 1,000 inserts at one place never re-spaced any key")
            #expect(most <= 65, "at \(position): one insert rewrote \(most) rows")
            #expect(
                writes.reduce(0, +) <= 4000,
                "at \(position): 1,000 inserts rewrote \(writes.reduce(0, +)) rows")
        }
        let expected = service.catalog
        let loaded = try SQLiteStore.open(directory: directory.path).1
        #expect(loaded == expected, "the re-spaced keys did not load in the same order")
    }

    /// 1,000 moves to the second place never rewrite more than a few dozen rows at once.
    @Test("1,000 moves to the second place never rewrite more than a few dozen rows at once")
    func movesToSecondPlace() throws {
        let directory = try TemporaryDirectory(prefix: "cliptab-cost")
        let (counting, service) = try Self.bigTable(directory, rows: 10_000)
        var rng = SeededRandom("WriteCostTests.movesToSecondPlace", fixed: 99)
        let first = counting.batches.count
        for _ in 0..<1000 {
            try service.moveRow("big", from: (0, Int32(2 + rng.below(9998))), to: (0, 1))
        }
        let writes = counting.batches[first...].map(Self.rowWrites)
        let most = try #require(writes.max(), "no batch written")
        #expect(most > 1 && most <= 65, "one move rewrote \(most) rows")
        #expect(try SQLiteStore.open(directory: directory.path).1 == service.catalog)
    }
}
