// SPDX-License-Identifier: MIT

/// Simulates a compiled program over a text, state set by state set, spending a budget.
struct RegexMatcher {
    let code: [RegexInstruction]
    let sets: [RegexScalarSet]
    var remaining: Int
    var pending: [Int32] = []
    var classCache: [UInt64] = []
    // The state sets of the current and the next position, kept between texts so that a
    // request matching many rows sets them up once.
    var current: StateSet
    var next: StateSet

    /// The steps that setting up a matcher costs: its state sets and stack, 24 bytes per state.
    static func setUpSteps(codeCount: Int) -> Int { codeCount / 4 }

    init(code: [RegexInstruction], sets: [RegexScalarSet], budget: Int) {
        self.code = code
        self.sets = sets
        remaining = budget
        pending.reserveCapacity(2 * code.count + 2)
        current = StateSet(capacity: code.count)
        next = StateSet(capacity: code.count)
    }

    /// True when this matcher runs `program` (the very same storage, which the matcher keeps
    /// alive, so no other program can have the same address).
    func runs(_ program: [RegexInstruction]) -> Bool {
        code.withUnsafeBufferPointer { mine in
            program.withUnsafeBufferPointer { mine.baseAddress == $0.baseAddress && mine.count == $0.count }
        }
    }

    // True when the start state, at a position with these properties, reaches a state that
    // consumes a character or matches.
    mutating func startReaches(atStart: Bool, atEnd: Bool) -> Bool {
        var reached = StateSet(capacity: code.count)
        if follow(0, into: &reached, atStart: atStart, atEnd: atEnd) { return true }
        for slot in 0..<reached.count {
            switch code[Int(reached.dense[slot])] {
            case .scalar, .any, .set: return true
            default: continue
            }
        }
        return false
    }

    // Adds `state` and every state reachable from it without consuming to `set`; true when
    // that reaches the final state. Spends one step per state added.
    private mutating func follow(_ state: Int, into set: inout StateSet, atStart: Bool, atEnd: Bool) -> Bool {
        pending.append(Int32(state))
        while let top = pending.popLast() {
            let state = Int(top)
            if set.contains(state) { continue }
            set.insert(state)
            remaining -= 1
            switch code[state] {
            case .jump(let target): pending.append(Int32(target))
            case .split(let first, let second):
                pending.append(Int32(second))
                pending.append(Int32(first))
            case .textStart: if atStart { pending.append(Int32(state + 1)) }
            case .textEnd: if atEnd { pending.append(Int32(state + 1)) }
            case .match:
                pending.removeAll(keepingCapacity: true)
                return true
            case .scalar, .any, .set: break
            }
        }
        return false
    }

    // Membership of a non-ASCII scalar in a set with character classes, through a small
    // direct-mapped cache: a Unicode property look-up costs about 40 ns, and a miss with its
    // cache upkeep about thirty plain steps, while real text repeats its scalars. Misses are
    // charged so that the budget keeps measuring time even for text of ever new scalars.
    private mutating func classLookup(set index: Int, _ scalar: Unicode.Scalar) -> Bool {
        let slotsPerSet = 64
        if classCache.isEmpty {
            // Once per request: 512 bytes per set to clear, charged like the rest.
            remaining -= 8 * sets.count
            classCache = Array(repeating: 0, count: sets.count * slotsPerSet)
        }
        let value = UInt64(scalar.value)
        let slot = index * slotsPerSet + Int((value ^ value >> 6) & UInt64(slotsPerSet - 1))
        let entry = classCache[slot]
        // An entry is (value + 1) << 1 | membership, so that 0 means empty.
        if entry >> 1 == value + 1 { return entry & 1 == 1 }
        remaining -= 30 * sets[index].classes.count
        let member = sets[index].contains(scalar)
        classCache[slot] = (value + 1) << 1 | (member ? 1 : 0)
        return member
    }

    // True or false for a match anywhere, nil when the budget ran out first. A match found
    // by the step that spent the last of the budget still counts: its work is done.
    mutating func run(_ text: String, startsOnlyAtTextStart: Bool) -> Bool? {
        // Taken out of `self` while running (`follow` mutates `self` too), put back at the end;
        // the empty placeholders allocate nothing.
        var current = self.current
        var next = self.next
        self.current = StateSet(capacity: 0)
        self.next = StateSet(capacity: 0)
        defer {
            self.current = current
            self.next = next
        }
        current.count = 0
        next.count = 0
        var scalars = text.unicodeScalars.makeIterator()
        var scalar = scalars.next()
        var atStart = true
        while true {
            let atEnd = scalar == nil
            // An unanchored search: a new thread starts at every position.
            if atStart || !startsOnlyAtTextStart {
                if follow(0, into: &current, atStart: atStart, atEnd: atEnd) { return true }
            }
            if remaining < 0 { return nil }
            guard let character = scalar else { return false }
            if current.count == 0 && startsOnlyAtTextStart { return false }
            scalar = scalars.next()
            let nextAtEnd = scalar == nil
            next.count = 0
            remaining -= current.count
            for slot in 0..<current.count {
                let state = Int(current.dense[slot])
                let consumed: Bool
                switch code[state] {
                case .scalar(let value): consumed = value == character.value
                case .any: consumed = true
                case .set(let index):
                    if character.value < 128 {
                        consumed = sets[index].contains(character)
                    } else if !sets[index].hasClasses {
                        // Beyond ASCII a set is searched range by range: charged by its size.
                        remaining -= sets[index].ranges.count >> 2
                        consumed = sets[index].contains(character)
                    } else {
                        consumed = classLookup(set: index, character)
                    }
                default: consumed = false
                }
                if consumed && follow(state + 1, into: &next, atStart: false, atEnd: nextAtEnd) {
                    return true
                }
            }
            swap(&current, &next)
            atStart = false
        }
    }
}

extension RegexMatcher {
    /// The set of NFA states alive at one position: a sparse set, so that clearing is O(1)
    /// and membership needs no hashing.
    struct StateSet {
        var dense: [Int32]
        var sparse: [Int32]
        var count = 0

        init(capacity: Int) {
            dense = Array(repeating: 0, count: capacity)
            sparse = Array(repeating: 0, count: capacity)
        }

        func contains(_ state: Int) -> Bool {
            let slot = Int(sparse[state])
            return slot < count && Int(dense[slot]) == state
        }

        mutating func insert(_ state: Int) {
            sparse[state] = Int32(count)
            dense[count] = Int32(state)
            count += 1
        }
    }
}
