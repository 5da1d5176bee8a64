// SPDX-License-Identifier: MIT

/// The keys of one JSON object seen so far, to refuse a duplicate without keeping the keys:
/// an open-addressing table of 8-byte slots, each 32 bits of the key's hash and the key's
/// byte offset, so that a key is read again only when its hash bits match another's.
///
/// An object of n keys costs at most 8 × 8n/3 bytes (the table grows when three quarters
/// full, to twice its size), 32n bytes while it grows; many distinct keys take some 8 bytes
/// of the data each (`"abc":0,`: shorter ones run out), so the table stays within about
/// 4 × the part of the data that the object spans, and is let go when the object ends.
/// The hash is Swift's seeded one, so no data can be made to collide on purpose and turn
/// the probing quadratic.
struct JSONKeyTable {
    /// The largest data the offsets can address (they take 32 bits, plus one so that 0 is
    /// an empty slot).
    static let maxDataBytes = Int(UInt32.max) - 1

    private var slots: [UInt64] = []
    private var count = 0

    /// Tables at most this large are kept (cleared) for the next object at the same depth;
    /// larger ones are let go, so one huge object leaves no huge table behind.
    private static let keptSlots = 64

    /// Forgets every key, for the next object.
    mutating func removeAll() {
        if slots.count > Self.keptSlots {
            slots = []
        } else if count > 0 {
            for index in slots.indices { slots[index] = 0 }
        }
        count = 0
    }

    /// Adds the key at `offset` (at most `maxDataBytes`) whose hash is `hash`; returns the
    /// offset of an earlier key that `isSame` confirms equal (it is asked only about keys
    /// with the same hash bits), and then adds nothing.
    mutating func insert(hash: Int, offset: Int, isSame: (Int) throws -> Bool) rethrows -> Int? {
        if slots.isEmpty {
            slots = Array(repeating: 0, count: 16)
        } else if 4 * (count + 1) > 3 * slots.count {
            grow()
        }
        let bits = UInt64(UInt32(truncatingIfNeeded: hash))
        let mask = slots.count - 1
        var index = Int(bits) & mask
        while slots[index] != 0 {
            let slot = slots[index]
            if slot >> 32 == bits {
                let earlier = Int(slot & 0xFFFF_FFFF) - 1
                if try isSame(earlier) { return earlier }
            }
            index = (index + 1) & mask
        }
        slots[index] = bits << 32 | UInt64(offset + 1)
        count += 1
        return nil
    }

    // Doubles the table, placing each slot again by the hash bits it keeps.
    private mutating func grow() {
        let old = slots
        slots = Array(repeating: 0, count: old.count * 2)
        let mask = slots.count - 1
        for slot in old where slot != 0 {
            var index = Int(slot >> 32) & mask
            while slots[index] != 0 { index = (index + 1) & mask }
            slots[index] = slot
        }
    }
}
