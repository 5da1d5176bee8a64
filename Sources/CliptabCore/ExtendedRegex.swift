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
        // Setting up a call (its state sets) costs about 250 ns, some 64 steps: charged so
        // that a million short rows cost what their time is.
        var matcher = RegexMatcher(code: code, sets: sets, budget: budget.remaining - 64)
        let found = matcher.run(text, startsOnlyAtTextStart: startsOnlyAtTextStart)
        budget.remaining = max(matcher.remaining, 0)
        guard let found else {
            throw CliptabError(
                .limitExceeded,
                "matching the regular expression \(ExtendedRegex.quoted(pattern)) against the rows is too costly "
                    + "(the budget of steps is spent); simplify the pattern (fewer nested repetitions, "
                    + "intervals or alternatives) or delete from fewer or shorter rows"
            )
        }
        return found
    }

    /// The pattern for a message: quoted, and cut if long so that the message stays readable.
    static func quoted(_ pattern: String) -> String {
        let scalars = pattern.unicodeScalars
        if scalars.count <= 80 { return "\"\(pattern)\"" }
        return "\"\(String(String.UnicodeScalarView(scalars.prefix(77))))…\""
    }
}
