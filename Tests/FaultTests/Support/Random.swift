// SPDX-License-Identifier: MIT
import Foundation
import Posix
import TestSupport

/// A small seeded generator (SplitMix64), so that a failing run can be repeated: each test
/// prints its seed, and `CLIPTAB_FAULT_SEED` sets it.
struct SeededRandom: RandomNumberGenerator {
    /// The seed this generator started from.
    let seed: UInt64
    private var core: SplitMix64

    /// Seeds from `CLIPTAB_FAULT_SEED` when set, else from the clock.
    init(_ label: String) {
        let fixed = ProcessInfo.processInfo.environment["CLIPTAB_FAULT_SEED"].flatMap { UInt64($0) }
        seed = fixed ?? MonotonicClock.nanoseconds()
        core = SplitMix64(seed: seed)
        print("\(label): seed \(seed) (set CLIPTAB_FAULT_SEED to repeat)")
    }

    /// The next 64 random bits.
    mutating func next() -> UInt64 { core.next() }

    /// True with probability `p`.
    mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &self) < p }

    /// A random element of `choices`.
    mutating func pick<T>(_ choices: [T]) -> T { choices[Int.random(in: 0..<choices.count, using: &self)] }

    /// A random `Int32` in `range`.
    mutating func int32(_ range: ClosedRange<Int>) -> Int32 { Int32(Int.random(in: range, using: &self)) }

    /// A short cell text: words from a small vocabulary (so that equal texts occur), now
    /// and then with tabs, newlines, commas and characters beyond ASCII.
    mutating func text() -> String {
        let words = ["alpha", "beta", "gamma", "delta", "ü", "日本", "🎉", "x,y", "tab\there", "two\nlines"]
        let count = Int.random(in: 1...3, using: &self)
        return (0..<count).map { _ in pick(words) }.joined(separator: " ")
    }
}
