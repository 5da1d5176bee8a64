// SPDX-License-Identifier: MIT

/// The scalars a bracket expression matches.
struct RegexScalarSet: Sendable {
    let negated: Bool
    let ranges: [ClosedRange<UInt32>]
    let classes: [RegexCharacterClass]
    var hasClasses: Bool { !classes.isEmpty }
    // Membership of the 128 ASCII scalars, negation included, so that the common case is
    // a shift and a mask.
    private var asciiLow: UInt64 = 0
    private var asciiHigh: UInt64 = 0

    init(negated: Bool, ranges: [ClosedRange<UInt32>], classes: [RegexCharacterClass]) {
        self.negated = negated
        self.ranges = ranges
        self.classes = classes
        // From the ranges directly: a pattern may hold 20,000 sets, and asking each of the 128
        // scalars of each set costs more than all the rest of compiling.
        var low: UInt64 = 0
        var high: UInt64 = 0
        for range in ranges where range.lowerBound < 128 {
            for value in range.lowerBound...min(range.upperBound, 127) {
                if value < 64 { low |= 1 << UInt64(value) } else { high |= 1 << UInt64(value - 64) }
            }
        }
        for characterClass in classes {
            for value in UInt32(0)..<128 where characterClass.contains(Unicode.Scalar(UInt8(value))) {
                if value < 64 { low |= 1 << UInt64(value) } else { high |= 1 << UInt64(value - 64) }
            }
        }
        asciiLow = negated ? ~low : low
        asciiHigh = negated ? ~high : high
    }

    func contains(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 64 { return asciiLow >> UInt64(value) & 1 == 1 }
        if value < 128 { return asciiHigh >> UInt64(value - 64) & 1 == 1 }
        return slowContains(scalar)
    }

    private func slowContains(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        var hit = false
        for range in ranges where range.contains(value) {
            hit = true
            break
        }
        if !hit {
            for characterClass in classes where characterClass.contains(scalar) {
                hit = true
                break
            }
        }
        return hit != negated
    }
}
