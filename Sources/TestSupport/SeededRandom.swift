// SPDX-License-Identifier: MIT
import Foundation
import Posix

/// The one seeded generator of the randomized tests (SplitMix64), so that a failing run
/// can be repeated: a test prints the seed it runs with, and `CLIPTAB_TEST_SEED` (decimal
/// or `0x` hexadecimal) makes it run with that seed instead.
public struct SeededRandom: RandomNumberGenerator {
    /// The environment variable that fixes the seed of every randomized test.
    public static let variable = "CLIPTAB_TEST_SEED"

    /// The seed this generator started from.
    public let seed: UInt64
    private var state: UInt64

    /// Starts the sequence of `seed`, as given (no environment, nothing printed): for runs
    /// that derive many seeds and report the one that failed.
    public init(seed: UInt64) {
        self.seed = seed
        state = seed
    }

    /// Starts the sequence of test `label`: the seed of `CLIPTAB_TEST_SEED` when set, else
    /// `fixed`, else one from the clock; prints which, with how to repeat it.
    public init(_ label: String, fixed: UInt64? = nil) {
        self.init(seed: Self.seed(for: label, fixed: fixed ?? MonotonicClock.nanoseconds()))
    }

    /// The seed given in `CLIPTAB_TEST_SEED`, if any.
    public static var requested: UInt64? {
        guard let text = ProcessInfo.processInfo.environment[variable] else { return nil }
        if text.hasPrefix("0x") { return UInt64(text.dropFirst(2), radix: 16) }
        return UInt64(text)
    }

    /// The seed test `label` runs with (`CLIPTAB_TEST_SEED`, else `fixed`), printed.
    public static func seed(for label: String, fixed: UInt64) -> UInt64 {
        let seed = requested ?? fixed
        print("\(label): seed \(seed) (\(replay(seed)) repeats it)")
        return seed
    }

    /// "CLIPTAB_TEST_SEED=N", to put in a failure message.
    public static func replay(_ seed: UInt64) -> String { "\(variable)=\(seed)" }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// A number in `0..<bound` (`bound` > 0).
    public mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    /// True with a probability of `percent` in a hundred.
    public mutating func percent(_ percent: Int) -> Bool { below(100) < percent }

    /// True with probability `p` (0...1; a percentage belongs in `percent`).
    public mutating func chance(_ p: Double) -> Bool {
        precondition((0...1).contains(p), "chance(\(p)) is not a probability")
        return Double.random(in: 0..<1, using: &self) < p
    }

    /// One of `items` (not empty).
    public mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
}
