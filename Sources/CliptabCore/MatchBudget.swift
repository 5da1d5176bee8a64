// SPDX-License-Identifier: MIT
import PosixRegex

/// The work that the row tests of one request may do together: every scan of `DeleteWhere`
/// (`equals`, `contains`, `prefix`, `suffix`, the numeric operators and `matches`) spends
/// this one budget, which ends the request with `limitExceeded` when it runs out.
///
/// One step is one NFA state visited at one position of a text, or one byte a plain scan
/// reads; a row's test also costs 64 steps for its set-up, and a Unicode character-class
/// look-up (not cached) 30 steps per class, so that steps track time. A budget thus bounds
/// the time of a whole `DeleteWhere` whatever the operator, the pattern, the rows and their
/// lengths.
public struct MatchBudget: Sendable {
    /// The steps one request gets by default: between half a second and a second of matching.
    ///
    /// Measured on the development machine (x86_64, 2 cores, shared with other builds) with a
    /// release build: `swiftc -O -wmo CliptabError.swift ExtendedRegex.swift bench.swift` (the
    /// engine was one file then; it is now `MatchBudget.swift`, `ExtendedRegex.swift` and the
    /// `Regex*.swift` files of the `PosixRegex` target), where `bench.swift` spends 400 million steps on each of `(a|a)*c`,
    /// `(x+x+)+y` (200,000 `a` or `x`), `(.*a){12}z`, `(a|b|c|d|e|f)*z`, class-heavy patterns over
    /// repeated and over all-distinct CJK text, and one call per row over a million short rows.
    /// The rates ranged from about 210 (all-distinct CJK text, `(x+x+)+y`) to 395
    /// (`(a|b|c|d|e|f)*z`) million steps per second, so 200 million steps take 0.5 to 0.95 s; a
    /// busy machine stretches that. A plain scan reads bytes faster than a step, so it stays
    /// well inside that time.
    public static let defaultSteps = 200_000_000

    /// The fixed cost of testing one row, in steps: its set-up, whatever the operator.
    public static let perRowSteps = ExtendedRegex.callSteps

    /// Steps left; matching throws `limitExceeded` when it would go below zero.
    public var remaining: Int

    /// The steps this budget started with.
    public let total: Int

    /// The matcher of the last regular expression matched under this budget, kept so that
    /// its state sets and class cache are set up once per request rather than once per row.
    var scratch = RegexScratch()

    /// A budget of `steps` steps.
    public init(steps: Int) {
        remaining = steps
        total = steps
    }

    /// Spends `steps` on a plain scan; throws `limitExceeded` naming the budget when it is spent.
    @inline(__always)
    public mutating func charge(_ steps: Int) throws(CliptabError) {
        remaining -= steps
        if remaining < 0 { try spent() }
    }

    // Out of line: the message is built only when the budget runs out.
    private mutating func spent() throws(CliptabError) {
        remaining = 0
        throw CliptabError(
            .limitExceeded,
            "the scan budget of one request (\(total) steps, about a second of work; a step is one byte "
                + "read or one pattern state visited, and each row costs \(Self.perRowSteps)) is spent; "
                + "use a shorter operand or delete from fewer or shorter rows")
    }
}
