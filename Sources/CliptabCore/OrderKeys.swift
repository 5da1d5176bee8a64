// SPDX-License-Identifier: MIT

/// Sparse order keys: each row (and section) stores a key, and the list is sorted by it.
///
/// Inserting between two keys takes their midpoint, so one insert or move writes one row; only when a gap is
/// used up are a few neighbours re-spaced, never the whole list.
public enum OrderKeys {
    /// The distance between keys given to appended elements and to re-spaced ones.
    public static let spacing: Int64 = 1 << 24

    /// The key for a new element inserted at `position` of a list whose keys are read by
    /// `key(at:)`, plus the re-keyed neighbours (`index` is in the list before the insert).
    public static func plan(
        count: Int, insertAt position: Int, key: (Int) -> Int64
    ) -> (key: Int64, rekeyed: [(index: Int, key: Int64)]) {
        precondition(position >= 0 && position <= count)
        if count == 0 { return (0, []) }
        if position == count {
            let last = key(count - 1)
            if last <= Int64.max - spacing { return (last + spacing, []) }
        } else if position == 0 {
            let first = key(0)
            if first >= Int64.min + spacing { return (first - spacing, []) }
        } else {
            let before = key(position - 1)
            let after = key(position)
            if after - before >= 2 { return (before + (after - before) / 2, []) }
        }
        return respace(count: count, insertAt: position, key: key)
    }

    /// Re-spaces the smallest window around `position` whose key range leaves room for every
    /// element in it plus the new one; doubles the window until it does.
    private static func respace(
        count: Int, insertAt position: Int, key: (Int) -> Int64
    ) -> (key: Int64, rekeyed: [(index: Int, key: Int64)]) {
        var radius = 8
        while true {
            let low = max(0, position - radius)
            let high = min(count, position + radius)  // exclusive
            let slots = Int64(high - low + 1)  // the window's elements plus the new one
            // Bounds are the keys just outside the window; at the list's ends, room is
            // free up to the extreme keys.
            let lower = low > 0 ? key(low - 1) : Int64.min / 4
            let upper = high < count ? key(high) : Int64.max / 4
            let (span, overflow) = upper.subtractingReportingOverflow(lower)
            let room = (overflow ? Int64.max : span) / (slots + 1)
            if room >= 2 || (low == 0 && high == count) {
                var step = max(room, 1)
                var next = lower
                // A window at one end of the list reaches the free keys beyond that end.
                // Spread over all of them, each re-spacing would take the end's elements a
                // fraction closer to the bound, until inserts near that end re-key windows
                // as large as the list; so the window takes the normal spacing and keeps
                // to its neighbour's side, leaving the free keys for the next time.
                if (low == 0) != (high == count) && room > spacing {
                    step = spacing
                    if low == 0 { next = upper - spacing * (slots + 1) }
                }
                var rekeyed: [(index: Int, key: Int64)] = []
                var newKey: Int64 = 0
                for slot in 0..<Int(slots) {
                    next += step
                    let index = low + slot
                    if index == position {
                        newKey = next
                    } else {
                        let oldIndex = index > position ? index - 1 : index
                        rekeyed.append((oldIndex, next))
                    }
                }
                return (newKey, rekeyed)
            }
            radius *= 2
        }
    }
}
