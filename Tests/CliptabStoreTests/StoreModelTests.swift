// SPDX-License-Identifier: MIT
import CliptabCore
import CliptabStore
import Glibc
import ModelTestSupport
import TestSupport
import Testing

/// The randomized model of the core tests (ModelTestSupport) over a real
/// SQLite store, closed and reopened every few calls: what is loaded must equal what was in
/// memory, counters included.
@Suite("Randomized model over SQLite")
struct StoreModelTests {
    /// Small limits, so that over-limit calls come up often.
    static let limits = Limits(maxCellBytes: 12, maxRowsPerTable: 24, maxSectionsPerTable: 6)

    /// The hooks of a store: injected commit failures happen inside SQLite.
    static func hooks(_ store: SQLiteStore) -> FaultHooks {
        FaultHooks(
            arm: { store.injectCommitFailures(1) }, disarm: { store.injectCommitFailures(0) },
            commits: { nil })
    }

    /// The first difference between a loaded catalog and the expected one, or nil.
    static func difference(_ loaded: Catalog, _ expected: Catalog) -> String? {
        if loaded == expected { return nil }
        if loaded.counters != expected.counters {
            return "counters \(loaded.counters), expected \(expected.counters)"
        }
        if loaded.tableNames != expected.tableNames {
            return "tables \(loaded.tableNames), expected \(expected.tableNames)"
        }
        for name in expected.tableNames {
            guard let table = loaded.tables[name], let wanted = expected.tables[name] else {
                return "\(name): missing from the tables"
            }
            if table.record != wanted.record {
                return "\(name): record \(table.record), expected \(wanted.record)"
            }
            if table.sections.count != wanted.sections.count {
                return "\(name): \(table.sections.count) sections, expected \(wanted.sections.count)"
            }
            for (index, (section, other)) in zip(table.sections, wanted.sections).enumerated()
            where section != other {
                return
                    "\(name) section \(index): \(section.id) \(section.key) \(section.header)|\(section.footer) "
                    + "\(section.rows.rows), expected \(other.id) \(other.key) \(other.header)|\(other.footer) "
                    + "\(other.rows.rows)"
            }
        }
        return "the catalogs differ in their index of names"
    }

    /// Random call sequences over SQLite, reopened every few calls, load what memory held.
    @Test(
        "Random call sequences over SQLite, reopened every few calls, load what memory held", arguments: 0..<2
    )
    func randomSequencesWithReopening(batch: Int) throws {
        var seeds = (0..<150).map {
            UInt64(batch * 150 + $0) &* 0xA24B_AED4_963E_E407 ^ 0x5707_E000_0000_0001
        }
        if let requested = SeededRandom.requested { seeds = batch == 0 ? [requested] : [] }
        print(
            "model over SQLite batch \(batch): \(seeds.count) seeds; a failure names its \(SeededRandom.variable)"
        )
        for seed in seeds {
            let directory = try TemporaryDirectory(prefix: "cliptab-model")
            var (store, catalog): (SQLiteStore?, Catalog) = try SQLiteStore.open(
                directory: directory.path, durability: .normal)
            #expect(catalog == Catalog())
            let run = ModelRun(seed: seed, hooks: Self.hooks(store!)) {
                TableService(catalog: catalog, persistence: store!, limits: Self.limits, announce: $0)
            }
            for round in 0..<8 {
                if let problem = run.run(steps: 8) {
                    Issue.record(Comment(rawValue: problem))
                    return
                }
                let expected = run.service.catalog
                run.detach()
                store = nil
                // The last connection's close checkpoints and removes the WAL: the store is
                // really closed, not just forgotten.
                #expect(access(directory.appending("cliptab.db-wal"), F_OK) != 0, "the store was not closed")
                (store, catalog) = try SQLiteStore.open(directory: directory.path, durability: .normal)
                if let difference = Self.difference(catalog, expected) {
                    Issue.record(
                        "\(SeededRandom.replay(seed)), reopened after round \(round): \(difference)")
                    return
                }
                run.attach(hooks: Self.hooks(store!)) {
                    TableService(catalog: catalog, persistence: store!, limits: Self.limits, announce: $0)
                }
            }
        }
    }
}
