// SPDX-License-Identifier: MIT
import TestSupport

extension SeededRandom {
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
