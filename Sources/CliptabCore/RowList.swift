// SPDX-License-Identifier: MIT

/// The ordered rows of one section, kept in chunks so that inserting or removing one row
/// costs about the same in a section of a thousand rows as in one of a million: a flat
/// array would shift every later row (megabytes) on each insert near the front.
public struct RowList: Sendable, Equatable, Sequence {
    /// A chunk splits when it grows past this many rows.
    static let maxChunk = 1024

    private var chunks: [[Row]] = []
    /// The number of rows.
    public private(set) var count = 0

    /// Makes an empty list.
    public init() {}

    /// Makes a list of `rows`, in order.
    public init(_ rows: [Row]) {
        for row in rows { append(row) }
    }

    /// True when there are no rows.
    public var isEmpty: Bool { count == 0 }

    /// The chunk holding `index` and the offset within it; `index == count` gives the end.
    private func locate(_ index: Int) -> (chunk: Int, offset: Int) {
        precondition(index >= 0 && index <= count, "row index \(index) outside 0...\(count)")
        if chunks.isEmpty { return (0, 0) }
        // Walking from the nearer end halves the average walk, and makes appends and reads
        // near the tail cheap.
        if index > count / 2 {
            var rest = count - index
            var chunk = chunks.count - 1
            while rest > chunks[chunk].count {
                rest -= chunks[chunk].count
                chunk -= 1
            }
            return (chunk, chunks[chunk].count - rest)
        }
        var remaining = index
        for (position, chunk) in chunks.enumerated() {
            if remaining < chunk.count { return (position, remaining) }
            remaining -= chunk.count
        }
        return (chunks.count - 1, chunks[chunks.count - 1].count)
    }

    /// The row at `index` (0..<count).
    public subscript(index: Int) -> Row {
        get {
            precondition(index >= 0 && index < count, "row index \(index) outside 0..<\(count)")
            let place = locate(index)
            return chunks[place.chunk][place.offset]
        }
        set {
            precondition(index >= 0 && index < count, "row index \(index) outside 0..<\(count)")
            let place = locate(index)
            chunks[place.chunk][place.offset] = newValue
        }
    }

    /// Appends `row` at the end.
    public mutating func append(_ row: Row) {
        if chunks.isEmpty || chunks[chunks.count - 1].count >= Self.maxChunk {
            var chunk: [Row] = []
            chunk.reserveCapacity(Self.maxChunk)
            chunks.append(chunk)
        }
        chunks[chunks.count - 1].append(row)
        count += 1
    }

    /// Inserts `row` so that it ends up at `index` (0...count).
    public mutating func insert(_ row: Row, at index: Int) {
        if index == count {
            append(row)
            return
        }
        let place = locate(index)
        chunks[place.chunk].insert(row, at: place.offset)
        count += 1
        if chunks[place.chunk].count > Self.maxChunk {
            let half = chunks[place.chunk].count / 2
            let tail = Array(chunks[place.chunk][half...])
            chunks[place.chunk].removeSubrange(half...)
            chunks.insert(tail, at: place.chunk + 1)
        }
    }

    /// Removes and returns the row at `index` (0..<count).
    @discardableResult
    public mutating func remove(at index: Int) -> Row {
        precondition(index >= 0 && index < count, "row index \(index) outside 0..<\(count)")
        let place = locate(index)
        let row = chunks[place.chunk].remove(at: place.offset)
        count -= 1
        if chunks[place.chunk].isEmpty { chunks.remove(at: place.chunk) }
        return row
    }

    /// Removes every row for which `shouldRemove` is true, in one pass.
    public mutating func removeAll(where shouldRemove: (Row) -> Bool) {
        var kept = RowList()
        for row in self where !shouldRemove(row) { kept.append(row) }
        self = kept
    }

    /// The index of the first row whose key is not less than `key` (binary search: keys
    /// ascend along the list).
    public func insertionIndex(forKey key: Int64) -> Int {
        // Find the chunk first by its last key, then search inside it.
        var base = 0
        for chunk in chunks {
            if let last = chunk.last, last.key >= key {
                var low = 0
                var high = chunk.count
                while low < high {
                    let middle = (low + high) / 2
                    if chunk[middle].key < key { low = middle + 1 } else { high = middle }
                }
                return base + low
            }
            base += chunk.count
        }
        return count
    }

    /// The index of the row with `key` and `id`, if there is one.
    ///
    /// Keys may repeat for a moment while a batch of writes re-spaces neighbours, hence the scan over equal
    /// keys.
    public func index(ofKey key: Int64, id: UInt64) -> Int? {
        var index = insertionIndex(forKey: key)
        while index < count {
            let row = self[index]
            if row.key != key { return nil }
            if row.id == id { return index }
            index += 1
        }
        return nil
    }

    /// The rows from `start`, at most `limit` of them.
    public func slice(from start: Int, limit: Int) -> [Row] {
        guard start < count, limit > 0 else { return [] }
        var result: [Row] = []
        result.reserveCapacity(Swift.min(limit, count - start))
        var place = locate(start)
        while result.count < limit && place.chunk < chunks.count {
            let chunk = chunks[place.chunk]
            let end = Swift.min(chunk.count, place.offset + (limit - result.count))
            result.append(contentsOf: chunk[place.offset..<end])
            place = (place.chunk + 1, 0)
        }
        return result
    }

    /// All rows in order.
    public var rows: [Row] { chunks.flatMap { $0 } }

    /// Iterates the rows in order.
    public func makeIterator() -> FlattenSequence<[[Row]]>.Iterator {
        chunks.joined().makeIterator()
    }

    /// Two lists are equal when they hold the same rows in the same order.
    public static func == (lhs: RowList, rhs: RowList) -> Bool {
        lhs.count == rhs.count && lhs.elementsEqual(rhs)
    }
}
