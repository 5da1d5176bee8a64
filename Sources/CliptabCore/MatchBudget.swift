// SPDX-License-Identifier: MIT

/// The work that the `ExtendedRegex.matches` calls of one request may do together.
///
/// One step is one NFA state visited at one position of a text; a call also costs 64 steps
/// for its set-up, and a Unicode character-class look-up (not cached) 30 steps per class, so
/// that steps track time. A budget thus bounds the time of a whole `DeleteWhere` whatever the
/// pattern, the rows and their lengths.
public struct MatchBudget: Sendable {
    /// The steps one request gets by default: between half a second and a second of matching.
    ///
    /// Measured on the development machine (x86_64, 2 cores, shared with other builds) with a
    /// release build: `swiftc -O -wmo CliptabError.swift ExtendedRegex.swift bench.swift` (the
    /// engine was one file then; it is now `MatchBudget.swift`, `ExtendedRegex.swift` and the
    /// `Regex*.swift` files), where `bench.swift` spends 400 million steps on each of `(a|a)*c`,
    /// `(x+x+)+y` (200,000 `a` or `x`), `(.*a){12}z`, `(a|b|c|d|e|f)*z`, class-heavy patterns over
    /// repeated and over all-distinct CJK text, and one call per row over a million short rows.
    /// The rates ranged from about 210 (all-distinct CJK text, `(x+x+)+y`) to 395
    /// (`(a|b|c|d|e|f)*z`) million steps per second, so 200 million steps take 0.5 to 0.95 s; a
    /// busy machine stretches that.
    public static let defaultSteps = 200_000_000

    /// Steps left; matching throws `limitExceeded` when it would go below zero.
    public var remaining: Int

    /// A budget of `steps` steps.
    public init(steps: Int) {
        remaining = steps
    }
}
