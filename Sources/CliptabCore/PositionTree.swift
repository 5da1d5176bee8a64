// SPDX-License-Identifier: MIT

/// The positions of the elements present among fixed slots (a Fenwick tree): an element's
/// index is the number of present slots before its own, found in O(log n) as elements come
/// and go, so that a batch of moves can name each move's indexes without rescanning a list.
struct PositionTree {
    private var tree: [Int]

    /// A tree of `present.count` slots, `present` marking the occupied ones, built in O(n).
    init(present: [Bool]) {
        tree = [0] + present.map { $0 ? 1 : 0 }
        let count = present.count
        var index = 1
        while index <= count {
            let parent = index + (index & -index)
            if parent <= count { tree[parent] += tree[index] }
            index += 1
        }
    }

    /// The number of occupied slots before `slot`.
    func count(before slot: Int) -> Int {
        var index = slot
        var sum = 0
        while index > 0 {
            sum += tree[index]
            index -= index & -index
        }
        return sum
    }

    /// Occupies (`+1`) or frees (`-1`) `slot`.
    mutating func add(_ delta: Int, at slot: Int) {
        var index = slot + 1
        while index < tree.count {
            tree[index] += delta
            index += index & -index
        }
    }
}

/// The positions in `values` of a longest strictly increasing subsequence, ascending;
/// O(n log n).
func longestIncreasingRun(_ values: [Int]) -> [Int] {
    guard !values.isEmpty else { return [] }
    // tails[k]: the index of the smallest last value of an increasing run of length k + 1.
    var tails: [Int] = []
    var previous = [Int](repeating: -1, count: values.count)
    for (index, value) in values.enumerated() {
        var low = 0
        var high = tails.count
        while low < high {
            let middle = (low + high) / 2
            if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
        }
        if low > 0 { previous[index] = tails[low - 1] }
        if low == tails.count { tails.append(index) } else { tails[low] = index }
    }
    var run: [Int] = []
    var index = tails[tails.count - 1]
    while index >= 0 {
        run.append(index)
        index = previous[index]
    }
    return run.reversed()
}

/// Order keys for a list whose elements keep theirs (non-nil, ascending) or need new ones
/// (nil), placed between their neighbours; nil when some gap is too narrow, in which case
/// the caller re-spaces the whole list.
func keysBetweenKept(_ kept: [Int64?]) -> [Int64]? {
    var keys = [Int64](repeating: 0, count: kept.count)
    var index = 0
    var lower: Int64?
    let spacing = OrderKeys.spacing
    let limit: Int64 = 1 << 61
    while index < kept.count {
        if let key = kept[index] {
            keys[index] = key
            lower = key
            index += 1
            continue
        }
        var end = index
        while end < kept.count && kept[end] == nil { end += 1 }
        let count = Int64(end - index)
        let upper = end < kept.count ? kept[end] : nil
        for offset in 0..<Int(count) {
            let k = Int64(offset)
            switch (lower, upper) {
            case (nil, nil):
                keys[index + offset] = k * spacing
            case (let low?, nil):
                guard low < limit - (count + 1) * spacing else { return nil }
                keys[index + offset] = low + (k + 1) * spacing
            case (nil, let high?):
                guard high > -limit + (count + 1) * spacing else { return nil }
                keys[index + offset] = high - (count - k) * spacing
            case (let low?, let high?):
                let step = (high - low) / (count + 1)
                guard step >= 1 else { return nil }
                keys[index + offset] = low + (k + 1) * step
            }
        }
        index = end
    }
    return keys
}
