// SPDX-License-Identifier: MIT
import CliptabCore
import TestSupport
import Testing

/// The chunked row list against a plain array.
///
/// Chunks hold up to 1,024 rows, so the lists here grow to several thousand rows to make
/// chunks split, empty and go away.
@Suite("Chunked row lists")
struct RowListTests {
    /// A row whose id, key and text tell where it came from.
    static func row(_ id: Int, key: Int64 = 0) -> Row { Row(id: UInt64(id), key: key, text: "row \(id)") }

    /// Checks every read of `list` against `array`; nil, or the first difference.
    static func difference(_ list: RowList, _ array: [Row], _ rng: inout SeededRandom) -> String? {
        if list.count != array.count { return "count \(list.count), expected \(array.count)" }
        if list.isEmpty != array.isEmpty { return "isEmpty disagrees" }
        if list.rows != array { return "rows differ" }
        if !list.elementsEqual(array) { return "iteration differs" }
        if list != RowList(array) { return "== differs from a list built by appending" }
        for index in array.indices where list[index] != array[index] { return "subscript \(index) differs" }
        let start = rng.below(array.count + 2)
        let limit = rng.below(2500)
        let expected = start < array.count ? Array(array[start..<min(array.count, start + limit)]) : []
        if list.slice(from: start, limit: limit) != expected {
            return "slice(from: \(start), limit: \(limit)) differs"
        }
        return nil
    }

    /// Random inserts, removals, writes and filters agree with an array.
    @Test("Random inserts, removals, writes and filters agree with an array")
    func randomOperations() {
        var rng = SeededRandom("RowListTests.randomOperations", fixed: 0x0C11_57AB)
        var list = RowList()
        var array: [Row] = []
        var nextID = 1
        var largest = 0
        for step in 0..<12_000 {
            let roll = rng.below(1000)
            switch roll {
            case 0..<500:
                // Inserts lean towards the front and the middle, where chunks split.
                let index = rng.percent(30) ? rng.below(min(array.count, 3) + 1) : rng.below(array.count + 1)
                list.insert(Self.row(nextID), at: index)
                array.insert(Self.row(nextID), at: index)
                nextID += 1
            case 500..<700:
                list.append(Self.row(nextID))
                array.append(Self.row(nextID))
                nextID += 1
            case 700..<880 where !array.isEmpty:
                let index = rng.below(array.count)
                let removed = list.remove(at: index)
                if removed != array.remove(at: index) {
                    Issue.record("step \(step): remove(at: \(index)) returned \(removed)")
                    return
                }
            case 880..<997 where !array.isEmpty:
                let index = rng.below(array.count)
                list[index].text = "written at step \(step)"
                array[index].text = "written at step \(step)"
            case 997 where step > 9000:
                let modulus = UInt64(2 + rng.below(5))
                list.removeAll { $0.id % modulus == 0 }
                array.removeAll { $0.id % modulus == 0 }
            default:
                break
            }
            largest = max(largest, array.count)
            if step % 50 == 0 || step > 11_900, let problem = Self.difference(list, array, &rng) {
                Issue.record("step \(step), \(array.count) rows: \(problem)")
                return
            }
        }
        #expect(largest > 3000, "the list never grew past a few chunks")
    }

    /// Thousands of inserts at the front and the middle split chunks and keep the order.
    @Test("Thousands of inserts at the front and the middle split chunks and keep the order")
    func insertsAtTheFrontAndMiddle() {
        var rng = SeededRandom("RowListTests.insertsAtTheFrontAndMiddle", fixed: 3)
        var list = RowList()
        var array: [Row] = []
        for id in 0..<5000 {
            let index = id % 2 == 0 ? 0 : array.count / 2
            list.insert(Self.row(id), at: index)
            array.insert(Self.row(id), at: index)
        }
        #expect(Self.difference(list, array, &rng) == nil)
        // Remove everything from the middle outwards: chunks empty and disappear.
        while !array.isEmpty {
            let index = array.count / 2
            #expect(list.remove(at: index) == array.remove(at: index))
        }
        #expect(list.isEmpty && list.count == 0 && list.rows.isEmpty)
        list.insert(Self.row(1), at: 0)
        #expect(list.rows == [Self.row(1)])
    }

    /// Key searches find the insertion point and the row, across chunks and equal keys.
    @Test("Key searches find the insertion point and the row, across chunks and equal keys")
    func keySearches() {
        var rng = SeededRandom("RowListTests.keySearches", fixed: 5)
        // Keys 0, 10, 20, … with some repeated (as while a batch re-spaces), built by
        // inserts in the middle so that the chunks have uneven sizes.
        var keys: [Int64] = (0..<4000).map { Int64($0 / 3 * 10) }
        keys.sort()
        var list = RowList()
        var array: [Row] = []
        for (id, key) in keys.enumerated().shuffled(using: &rng) {
            let row = Self.row(id, key: key)
            let index = array.firstIndex { ($0.key, $0.id) > (row.key, row.id) } ?? array.count
            list.insert(row, at: index)
            array.insert(row, at: index)
        }
        #expect(list.rows == array)
        for probe in [Int64.min, -1, 0, 5, 10, 4990, 13_320, 13_330, 20_000, .max]
            + (0..<200).map({ _ in
                Int64(rng.below(14_000))
            })
        {
            let expected = array.firstIndex { $0.key >= probe } ?? array.count
            #expect(list.insertionIndex(forKey: probe) == expected, "insertionIndex(forKey: \(probe))")
        }
        for _ in 0..<300 {
            let index = rng.below(array.count)
            let row = array[index]
            #expect(list.index(ofKey: row.key, id: row.id) == index)
        }
        #expect(list.index(ofKey: 5, id: 1) == nil, "a key no row has")
        #expect(list.index(ofKey: 10, id: 0) == nil, "an existing key with another row's id")
    }
}
