// SPDX-License-Identifier: MIT
import CliptabCore
import TestSupport
import Testing

/// A list of order keys that takes planned inserts as the service does: re-keyed neighbours
/// first, then the new key; every step is checked.
private struct KeyList {
    /// The keys, in list order.
    var keys: [Int64]
    /// The most neighbours one insert re-keyed.
    var mostRekeyed = 0
    /// All neighbours re-keyed so far.
    var totalRekeyed = 0

    /// Plans and applies an insert at `position`; nil, or what was wrong.
    mutating func insert(at position: Int) -> String? {
        let current = keys
        let plan = OrderKeys.plan(count: current.count, insertAt: position) { current[$0] }
        let indexes = plan.rekeyed.map(\.index)
        if Set(indexes).count != indexes.count { return "an index re-keyed twice: \(indexes)" }
        if indexes.contains(where: { $0 < 0 || $0 >= current.count }) { return "re-keyed index out of range" }
        for rekey in plan.rekeyed { keys[rekey.index] = rekey.key }
        keys.insert(plan.key, at: position)
        mostRekeyed = max(mostRekeyed, indexes.count)
        totalRekeyed += indexes.count
        if let bad = keys.indices.dropLast().first(where: { keys[$0] >= keys[$0 + 1] }) {
            return "keys not strictly ascending at \(bad) after an insert at \(position)"
        }
        return nil
    }

    /// Removes the key at `source` and inserts it again at `target` (a move).
    mutating func move(from source: Int, to target: Int) -> String? {
        keys.remove(at: source)
        return insert(at: target)
    }
}

/// `OrderKeys.plan` on its own: keys strictly ascending and distinct after every planned and
/// applied insert, and re-spacing that stays local.
@Suite("Sparse order keys")
struct OrderKeysTests {
    /// The simple cases: empty list, append, prepend, midpoint; nothing re-keyed.
    @Test("The simple cases: empty list, append, prepend, midpoint; nothing re-keyed")
    func simpleCases() {
        #expect(OrderKeys.plan(count: 0, insertAt: 0) { _ in 0 }.key == 0)
        let keys: [Int64] = [0, 100, 1000]
        for (position, expected) in [
            (3, 1000 + OrderKeys.spacing), (0, -OrderKeys.spacing), (1, 50), (2, 550),
        ] {
            let plan = OrderKeys.plan(count: 3, insertAt: position) { keys[$0] }
            #expect(plan.key == Int64(expected))
            #expect(plan.rekeyed.isEmpty)
        }
    }

    /// Prepends and appends never re-key anything.
    @Test("Prepends and appends never re-key anything", arguments: [0, 100])
    func prependsAndAppends(position: Int) {
        var list = KeyList(keys: (0..<100).map { Int64($0) * OrderKeys.spacing })
        for step in 0..<5000 {
            if let problem = list.insert(at: position == 0 ? 0 : list.keys.count) {
                Issue.record("step \(step): \(problem)")
                return
            }
        }
        #expect(list.totalRekeyed == 0)
    }

    /// Thousands of inserts at one position re-space a few neighbours at a time.
    @Test(
        "Thousands of inserts at one position re-space a few neighbours at a time",
        arguments: [1, 2, 5, 50, -2, -1])
    func insertsAtOnePosition(position: Int) {
        // A negative position counts from the end: -1 is just before the last key.
        var list = KeyList(keys: (0..<100).map { Int64($0) * OrderKeys.spacing })
        for step in 0..<5000 {
            if let problem = list.insert(at: position < 0 ? list.keys.count + position : position) {
                Issue.record("step \(step): \(problem)")
                return
            }
        }
        #expect(list.totalRekeyed > 0, "5,000 inserts at one place never re-spaced")
        // Amortized small, and never a renumbering of the whole list; a single re-spacing
        // may take a large crowd at once (that is what keeps the average low).
        #expect(list.mostRekeyed < list.keys.count, "one insert re-keyed \(list.mostRekeyed) neighbours")
        #expect(list.totalRekeyed <= 5000 * 8, "5,000 inserts re-keyed \(list.totalRekeyed) neighbours")
    }

    /// Moving rows one after another to the second place stays cheap (a list under a pinned row).
    @Test("Moving rows one after another to the second place stays cheap (a list under a pinned row)")
    func movesToSecondPlace() {
        var list = KeyList(keys: (0..<1000).map { Int64($0) * OrderKeys.spacing })
        var rng = SeededRandom("OrderKeysTests.movesToSecondPlace", fixed: 7)
        for step in 0..<5000 {
            if let problem = list.move(from: rng.below(1000), to: 1) {
                Issue.record("step \(step): \(problem)")
                return
            }
        }
        #expect(list.totalRekeyed > 0)
        #expect(list.mostRekeyed < list.keys.count - 1, "one move re-keyed \(list.mostRekeyed) neighbours")
    }

    /// Moving rows one after another to one place in the middle keeps the keys ascending.
    @Test("Moving rows one after another to one place in the middle keeps the keys ascending")
    func movesToTheMiddle() {
        var list = KeyList(keys: (0..<1000).map { Int64($0) * OrderKeys.spacing })
        var rng = SeededRandom("OrderKeysTests.movesToTheMiddle", fixed: 11)
        for step in 0..<2000 {
            if let problem = list.move(from: rng.below(1000), to: 500) {
                Issue.record("step \(step): \(problem)")
                return
            }
        }
        #expect(list.totalRekeyed > 0)
    }

    /// Random inserts and moves keep the keys strictly ascending and distinct.
    @Test("Random inserts and moves keep the keys strictly ascending and distinct")
    func randomInserts() {
        var list = KeyList(keys: [])
        var rng = SeededRandom("OrderKeysTests.randomInserts", fixed: 0x5EED)
        for step in 0..<6000 {
            let problem: String?
            if list.keys.count > 10 && rng.percent(30) {
                problem = list.move(from: rng.below(list.keys.count), to: rng.below(list.keys.count))
            } else {
                // Favour a few hot spots, so that gaps run out.
                let hot = [0, list.keys.count / 3, list.keys.count]
                problem = list.insert(at: rng.percent(70) ? rng.pick(hot) : rng.below(list.keys.count + 1))
            }
            if let problem {
                Issue.record("step \(step): \(problem)")
                return
            }
        }
        #expect(list.totalRekeyed > 0)
    }

    /// Keys without any gap (consecutive integers) are re-spaced, not duplicated.
    @Test("Keys without any gap (consecutive integers) are re-spaced, not duplicated")
    func denseKeys() {
        for position in [1, 17, 500, 999] {
            var list = KeyList(keys: (0..<1000).map { Int64($0) })
            for step in 0..<50 {
                if let problem = list.insert(at: position) {
                    Issue.record("position \(position), step \(step): \(problem)")
                    return
                }
            }
            #expect(list.totalRekeyed > 0)
        }
    }
}

/// Where rows keep arriving in the middle of a list, re-spacing stays amortized small.
@Suite("Order keys under repeated middle inserts")
struct OrderKeysMiddleTests {
    /// 5,000 moves of random rows to index 500 of a 1,000-row list, and 20,000 inserts at
    /// the middle of a growing list, re-key a bounded number of neighbours per change on
    /// average, and never the whole list.
    @Test func middleTraffic() {
        var list = KeyList(keys: (0..<1000).map { Int64($0) * OrderKeys.spacing })
        var rng = SeededRandom("OrderKeysTests.middleTraffic", fixed: 11)
        for step in 0..<5000 {
            if let problem = list.move(from: rng.below(1000), to: 500) {
                Issue.record("move step \(step): \(problem)")
                return
            }
        }
        #expect(list.mostRekeyed < 999, "one move re-keyed \(list.mostRekeyed) rows")
        #expect(list.totalRekeyed <= 5000 * 8, "5,000 moves re-keyed \(list.totalRekeyed) rows")

        var growing = KeyList(keys: (0..<100).map { Int64($0) * OrderKeys.spacing })
        for step in 0..<20000 {
            if let problem = growing.insert(at: growing.keys.count / 2) {
                Issue.record("insert step \(step): \(problem)")
                return
            }
        }
        #expect(growing.totalRekeyed <= 20000 * 16, "20,000 inserts re-keyed \(growing.totalRekeyed) rows")
    }
}
