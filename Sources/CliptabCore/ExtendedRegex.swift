// SPDX-License-Identifier: MIT

/// A POSIX extended regular expression (the syntax of `grep -E`), matched in linear time.
///
/// The pattern is compiled to a Thompson NFA and simulated state set by state set, so the
/// work is at most (program size) x (text length) and never explodes, whatever the pattern.
/// Matching works on Unicode scalars; `.` matches every scalar including a newline (POSIX
/// `regexec` without `REG_NEWLINE`), and `^` and `$` anchor at the start and the end of the
/// whole text.
///
/// Where POSIX leaves the syntax undefined this engine refuses rather than guesses: a
/// repetition operator with nothing before it (`*a`, `(+a)`, `a|?b`) or after an anchor
/// (`^*`), a backslash before a letter or digit (`\d`, `\w`, `\1`: GNU extensions or
/// back-references, which are not regular), and a `{` that does not start a valid interval.
/// Accepted beyond the letter of POSIX, as GNU grep does: empty groups and alternatives
/// (`()`, `a|`), stacked repetitions (`a*+`), `{,n}` meaning `{0,n}`, and a backslash before
/// any other non-alphanumeric character as that character. Bracket ranges compare code
/// points; `[=c=]` and `[.c.]` accept a single character only.
public struct ExtendedRegex: Sendable {
    /// The largest compiled program, in NFA instructions, after intervals are expanded.
    public static let maxProgramSize = 20_000
    /// The longest pattern, in UTF-8 bytes: checked before anything is parsed.
    public static let maxPatternBytes = 1 << 20
    /// The most elements (characters, ranges, classes) all bracket expressions of a pattern hold.
    public static let maxBracketElements = 65_536
    /// The deepest nesting of groups, alternations and repetitions in a pattern.
    public static let maxNesting = 200

    /// The pattern as given.
    public let pattern: String
    private let code: [RegexInstruction]
    private let sets: [RegexScalarSet]
    // True when no thread can start after the first position (every branch begins with
    // `^`), so the search can stop as soon as no thread is alive.
    private let startsOnlyAtTextStart: Bool

    /// Compiles `pattern`; a bad pattern throws `invalidArgument` saying where and why, a
    /// pattern too large once expanded throws `limitExceeded`.
    public init(_ pattern: String) throws {
        self.pattern = pattern
        let length = pattern.utf8.count
        if length > Self.maxPatternBytes {
            throw CliptabError(
                .limitExceeded,
                "the regular expression is \(length) bytes long; the limit is \(Self.maxPatternBytes) bytes")
        }
        var parser = RegexParser(pattern: pattern)
        let root = try parser.parse()
        let size = RegexCompiler.size(of: root) + 1
        if size > Self.maxProgramSize {
            throw CliptabError(
                .limitExceeded,
                "the regular expression \(ExtendedRegex.quoted(pattern)) is too large once its repetitions are "
                    + "expanded (more than \(Self.maxProgramSize) states); use smaller intervals"
            )
        }
        var compiler = RegexCompiler()
        compiler.code.reserveCapacity(size)
        compiler.emit(root)
        compiler.code.append(.match)
        code = compiler.code
        sets = parser.sets
        var probe = RegexMatcher(code: code, sets: sets, budget: Int.max)
        let consumingAnywhere =
            probe.startReaches(atStart: false, atEnd: false)
            || probe.startReaches(atStart: false, atEnd: true)
        startsOnlyAtTextStart = !consumingAnywhere
    }

    /// True when the expression matches somewhere in `text`; spends `budget` and throws
    /// `limitExceeded` when it runs out.
    public func matches(_ text: String, budget: inout MatchBudget) throws -> Bool {
        // The matcher (its state sets, its class cache) is made once per request and kept in
        // the budget, so that a row costs only its text; that set-up is charged once, and each
        // call's own set-up, some 64 steps, so that a million short rows cost what their time is.
        var matcher: RegexMatcher
        var setUp = MatchBudget.perRowSteps
        if let kept = budget.matcher, kept.runs(code) {
            matcher = kept
        } else {
            matcher = RegexMatcher(code: code, sets: sets, budget: 0)
            setUp += RegexMatcher.setUpSteps(codeCount: code.count)
        }
        // Released from the budget while running so that the arrays are not copied on write.
        budget.matcher = nil
        matcher.remaining = budget.remaining - setUp
        let found = matcher.run(text, startsOnlyAtTextStart: startsOnlyAtTextStart)
        budget.remaining = max(matcher.remaining, 0)
        budget.matcher = matcher
        guard let found else {
            throw CliptabError(
                .limitExceeded,
                "matching the regular expression \(ExtendedRegex.quoted(pattern)) against the rows is too costly "
                    + "(the scan budget of one request, \(budget.total) steps, is spent); simplify the pattern (fewer nested repetitions, "
                    + "intervals or alternatives) or delete from fewer or shorter rows"
            )
        }
        return found
    }

    /// The pattern for a message: quoted, and cut if long so that the message stays readable.
    static func quoted(_ pattern: String) -> String {
        Quotation.quoted(pattern, maxScalars: 80)
    }
}
