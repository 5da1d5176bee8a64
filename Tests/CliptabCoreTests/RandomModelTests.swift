// SPDX-License-Identifier: MIT
import CliptabCore
import ModelTestSupport
import TestSupport
import Testing

/// The service against the naive reference of ModelTestSupport, over MemoryPersistence.
@Suite("Randomized model")
struct RandomModelTests {
    /// Small limits, so that over-limit cells, rows and sections come up often.
    static let smallLimits = Limits(maxCellBytes: 12, maxRowsPerTable: 24, maxSectionsPerTable: 6)
    /// Sequences per test case.
    static let sequences = 600
    /// Calls per sequence.
    static let steps = 40

    /// The errors the core can produce (the clipboard ones come from the daemon); the
    /// model never turns templates on, whose errors `TemplateTableTests` provokes.
    // RevisionMismatch is ApplyTable's alone, which DocumentApplyTests exercise; the linked
    // files' errors come from the daemon's linked tables.
    static let coreCodes = Set(CliptabError.Code.allCases).subtracting([
        .clipboardEmpty, .clipboardUnavailable, .invalidTemplate, .inputRequired, .revisionMismatch,
        .linkedFileInvalid, .fileExists,
    ])

    /// The seeds of one batch: a fixed series, or only the one of `CLIPTAB_TEST_SEED` (in the
    /// first batch), which repeats a reported failure.
    static func seeds(batch: Int) -> [UInt64] {
        if let requested = SeededRandom.requested {
            if batch == 0 { print("randomized model: only seed \(requested), from \(SeededRandom.variable)") }
            return batch == 0 ? [requested] : []
        }
        let seeds = (0..<sequences).map {
            UInt64(batch * sequences + $0) &* 0x9E37_79B9_7F4A_7C15 ^ 0x00C1_1F7A_B000_0001
        }
        print(
            "randomized model batch \(batch): \(seeds.count) seeds from \(seeds[0]); a failure names its "
                + "\(SeededRandom.variable)")
        return seeds
    }

    /// random call sequences agree with the reference, the events and the invariants.
    @Test("random call sequences agree with the reference, the events and the invariants", arguments: 0..<4)
    func randomSequences(batch: Int) {
        var coverage = Set<String>()
        let seeds = Self.seeds(batch: batch)
        for seed in seeds {
            let persistence = MemoryPersistence()
            // The seed picks the limits, so that a replayed seed runs with the same ones.
            let limits = seed % 4 == 3 ? Limits.defaults : Self.smallLimits
            let run = ModelRun(seed: seed, hooks: .memory(persistence)) {
                TableService(catalog: Catalog(), persistence: persistence, limits: limits, announce: $0)
            }
            if let problem = run.run(steps: Self.steps) {
                Issue.record(Comment(rawValue: problem))
                return
            }
            coverage.formUnion(run.coverage)
        }
        // One replayed seed cannot reach every kind of call: coverage is a property of the series.
        guard SeededRandom.requested == nil else { return }
        let codes = Set(
            coverage.compactMap {
                $0.split(separator: ":").last.flatMap { CliptabError.Code(rawValue: String($0)) }
            })
        #expect(codes == Self.coreCodes, "error kinds never provoked: \(Self.coreCodes.subtracting(codes))")
        let calls = Set(coverage.map { String($0.prefix { $0 != ":" }) })
        let succeeded = Set(coverage.filter { $0.hasSuffix(":ok") }.map { String($0.prefix { $0 != ":" }) })
        #expect(
            calls.count == 28 && succeeded == calls,
            "calls that never succeeded: \(calls.subtracting(succeeded))")
    }
}
