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

    /// Compiles `pattern`; a bad pattern throws `invalidPattern` saying where and why, a
    /// pattern too large once expanded throws `limitExceeded`.
    public init(_ pattern: String) throws(RegexError) {
        self.pattern = pattern
        let length = pattern.utf8.count
        if length > Self.maxPatternBytes {
            throw RegexError(
                .limitExceeded,
                "the regular expression is \(length) bytes long; the limit is \(Self.maxPatternBytes) bytes")
        }
        var parser = RegexParser(pattern: pattern)
        let root: RegexNode
        do {
            root = try parser.parse()
        } catch let error as RegexError {
            throw error
        } catch {
            throw RegexError(.invalidPattern, "\(error)")
        }
        let size = RegexCompiler.size(of: root) + 1
        if size > Self.maxProgramSize {
            throw RegexError(
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

    /// What one call of `matches` costs before it reads its text, in steps, besides a new
    /// scratch's set-up.
    public static let callSteps = 64

    /// True when the expression matches somewhere in `text`, spending at most `steps` (one
    /// step is one NFA state visited at one position) and `callSteps`; throws
    /// `limitExceeded` when they run out.
    ///
    /// `scratch` keeps the matcher (its state sets, its class cache) between calls, so that
    /// many texts matched in a row cost only their text: its set-up is charged when it is
    /// made for this expression.
    public func matches(_ text: String, steps: inout Int, scratch: inout RegexScratch) throws(RegexError)
        -> Bool
    {
        var matcher: RegexMatcher
        var setUp = Self.callSteps
        if let kept = scratch.matcher, kept.runs(code) {
            matcher = kept
        } else {
            matcher = RegexMatcher(code: code, sets: sets, budget: 0)
            setUp += RegexMatcher.setUpSteps(codeCount: code.count)
        }
        // Released from the scratch while running so that the arrays are not copied on write.
        scratch.matcher = nil
        matcher.remaining = steps - setUp
        let found = matcher.run(text, startsOnlyAtTextStart: startsOnlyAtTextStart)
        steps = max(matcher.remaining, 0)
        scratch.matcher = matcher
        guard let found else {
            throw RegexError(
                .limitExceeded,
                "matching the regular expression \(ExtendedRegex.quoted(pattern)) ran out of steps")
        }
        return found
    }

    /// The most Unicode scalars of a pattern that a message quotes.
    static let quotedScalars = 80

    /// The pattern for a message, in double quotes; a long one cut to its first
    /// `quotedScalars` and an ellipsis, followed by how many bytes were left out (as
    /// CliptabCore's `Quotation` quotes what a caller sent).
    public static func quoted(_ pattern: String) -> String {
        let scalars = pattern.unicodeScalars
        guard
            let end = scalars.index(scalars.startIndex, offsetBy: quotedScalars, limitedBy: scalars.endIndex),
            end != scalars.endIndex
        else { return "\"\(pattern)\"" }
        let kept = String(String.UnicodeScalarView(scalars[..<end]))
        return "\"\(kept)…\" (and \(pattern.utf8.count - kept.utf8.count) bytes more)"
    }
}
