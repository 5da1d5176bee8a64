// SPDX-License-Identifier: MIT

import CliptabCore
import Foundation
import PosixRegex
import TestSupport
import Testing

// SeededRandom comes from TestSupport, shared by the randomized tests.

private func matches(_ pattern: String, _ text: String) throws -> Bool {
    var budget = MatchBudget(steps: MatchBudget.defaultSteps)
    return try ExtendedRegex(checked: pattern).matches(text, budget: &budget)
}

private func compileError(_ pattern: String) -> CliptabError? {
    do {
        _ = try ExtendedRegex(checked: pattern)
        return nil
    } catch {
        return error
    }
}

@Suite("ExtendedRegex")
struct ExtendedRegexTests {
    // (pattern, text, expected), checked by hand against `grep -E` where grep's line-based
    // matching agrees (texts without newlines).
    private static let table: [(String, String, Bool)] = [
        ("", "", true),
        ("", "anything", true),
        ("abc", "xxabcxx", true),
        ("abc", "ab", false),
        ("a.c", "abc", true),
        ("a.c", "ac", false),
        ("^abc$", "abc", true),
        ("^abc$", "abcd", false),
        ("^abc", "xabc", false),
        ("abc$", "abcx", false),
        ("a^b", "a^b", false),
        ("a$b", "a$b", false),
        ("a\\^b", "a^b", true),
        ("a\\$b", "a$b", true),
        ("^$", "", true),
        ("^$", "x", false),
        ("a|b", "b", true),
        ("a|b", "c", false),
        ("^(a|b)$", "ab", false),
        ("^(ab|cd)+$", "abcdab", true),
        ("^(ab|cd)+$", "abcda", false),
        ("^a*$", "", true),
        ("^a*$", "aaaa", true),
        ("^a+$", "", false),
        ("^a?b$", "b", true),
        ("^a?b$", "aab", false),
        ("^a{3}$", "aaa", true),
        ("^a{3}$", "aa", false),
        ("^a{3}$", "aaaa", false),
        ("^a{2,}$", "a", false),
        ("^a{2,}$", "aaaaaaa", true),
        ("^a{2,3}$", "aaa", true),
        ("^a{2,3}$", "aaaa", false),
        ("^a{,2}$", "aa", true),
        ("^a{,2}$", "aaa", false),
        ("^a{0}b$", "b", true),
        ("^(ab){2}$", "abab", true),
        ("^(a|bc){2,3}$", "bcabc", true),
        ("^(a|bc){2,3}$", "abcabc", false),
        ("^a**$", "aaa", true),
        ("^a+?$", "", true),
        ("^()$", "", true),
        ("^(|a)b$", "b", true),
        ("^(a|)b$", "ab", true),
        ("[abc]", "xbx", true),
        ("[abc]", "xyz", false),
        ("^[a-c]+$", "abcabc", true),
        ("^[a-c]+$", "abd", false),
        ("[^a-c]", "abc", false),
        ("[^a-c]", "abcd", true),
        ("^[]a]+$", "]a]", true),
        ("^[^]a]+$", "bc", true),
        ("^[^]a]+$", "b]", false),
        ("^[a-]+$", "a-a", true),
        ("^[-a]+$", "-", true),
        ("^[\\.]+$", "\\.", true),
        ("^[.]$", "x", false),
        ("^[[:digit:]]+$", "0123456789", true),
        ("^[[:digit:]]+$", "12a", false),
        ("^[[:alpha:]]+$", "abcXYZ", true),
        ("^[[:alnum:]_]+$", "a_1", true),
        ("^[[:upper:]]+$", "ABC", true),
        ("^[[:upper:]]+$", "AbC", false),
        ("^[[:lower:]]+$", "abc", true),
        ("^[[:space:]]+$", " \t\n\r\u{0B}\u{0C}", true),
        ("^[[:blank:]]+$", " \t", true),
        ("^[[:blank:]]+$", "\n", false),
        ("^[[:punct:]]+$", "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", true),
        ("^[[:punct:]]+$", "a", false),
        ("^[[:print:]]+$", "a b~", true),
        ("^[[:print:]]+$", "a\tb", false),
        ("^[[:graph:]]+$", "a b", false),
        ("^[[:graph:]]+$", "a!b", true),
        ("^[[:cntrl:]]+$", "\u{01}\u{1F}\u{7F}", true),
        ("^[[:xdigit:]]+$", "09afAF", true),
        ("^[[:xdigit:]]+$", "0g", false),
        ("^[[=a=]]$", "a", true),
        ("^[[.-.]a]+$", "-a", true),
        ("^[[.-.]-0]+$", "./0", true),
        ("\\.", "a.b", true),
        ("\\.", "ab", false),
        ("a\\*", "a*", true),
        ("\\(\\)\\[\\]\\{\\}\\|\\+\\?\\\\", "()[]{}|+?\\", true),
        ("a}", "a}", true),
        ("a]", "a]", true),
        ("\\/\\-", "/-", true),
        // Operating on Unicode scalars: `.` is one scalar, not one grapheme.
        ("^.$", "é", true),
        ("^.$", "e\u{301}", false),
        ("^..$", "e\u{301}", true),
        ("^[é日]+$", "日é日", true),
        ("^[[:alpha:]]+$", "日本語éß", true),
        ("^[[:upper:]]+$", "ÉΣ", true),
        ("^[[:lower:]]+$", "éσ", true),
        ("^[[:punct:]]+$", "«»—€", true),
        ("^[[:space:]]$", "\u{2003}", true),
        ("^[[:blank:]]$", "\u{3000}", true),
        ("^[[:digit:]]$", "٣", false),
        ("^[[:alnum:]]$", "٣", true),
        ("^[^[:alpha:]]$", "日", false),
        ("^[α-ω]+$", "λμ", true),
        ("^😀+$", "😀😀", true),
        // The whole text is one subject: `.` crosses newlines, anchors are not per line.
        ("a.b", "a\nb", true),
        ("^b", "a\nb", false),
        ("a$", "a\nb", false),
        ("^a\nb$", "a\nb", true),
        ("^[^x]+$", "a\nb", true),
    ]

    @Test("pattern table", arguments: table)
    func patternTable(_ entry: (String, String, Bool)) throws {
        let (pattern, text, expected) = entry
        #expect(try matches(pattern, text) == expected, "pattern \(pattern) on \(text.debugDescription)")
    }

    @Test("agrees with grep -E on random patterns over {a, b}")
    func agreesWithGrep() throws {
        var random = SeededRandom("ExtendedRegexTests.agreesWithGrep", fixed: 0x5EED_CAFE)
        var texts = [""]
        for _ in 0..<60 {
            let length = Int.random(in: 1...9, using: &random)
            texts.append(String((0..<length).map { _ in Bool.random(using: &random) ? "a" : "b" }))
        }
        var checked = 0
        for _ in 0..<300 {
            let pattern = Self.randomPattern(depth: 2, using: &random)
            let expected = try Self.grepMatches(pattern: pattern, texts: texts)
            let regex = try ExtendedRegex(checked: pattern)
            for (line, text) in texts.enumerated() {
                var budget = MatchBudget(steps: MatchBudget.defaultSteps)
                let got = try regex.matches(text, budget: &budget)
                #expect(
                    got == expected.contains(line), "pattern \(pattern) on \"\(text)\": grep says \(!got)")
                checked += 1
            }
        }
        #expect(checked == 300 * texts.count)
    }

    private static func randomPattern(depth: Int, using random: inout SeededRandom) -> String {
        let branches = Int.random(in: 0..<6, using: &random) == 0 ? 2 : 1
        var alternatives: [String] = []
        for _ in 0..<branches {
            var branch = ""
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let roll = Int.random(in: 0..<20, using: &random)
                let atom: String
                var quantifiable = true
                switch roll {
                case 0..<5: atom = "a"
                case 5..<9: atom = "b"
                case 9..<11: atom = "."
                case 11: atom = "[ab]"
                case 12: atom = "[^a]"
                case 13: atom = "[a-b]"
                case 14:
                    atom = "^"
                    quantifiable = false
                case 15:
                    atom = "$"
                    quantifiable = false
                default:
                    atom = depth > 0 ? "(" + randomPattern(depth: depth - 1, using: &random) + ")" : "a"
                }
                branch += atom
                if quantifiable {
                    let quantifiers = ["*", "+", "?", "{2}", "{1,}", "{0,2}", "{1,3}"]
                    if Int.random(in: 0..<3, using: &random) == 0 {
                        branch += quantifiers.randomElement(using: &random)!
                    }
                }
            }
            alternatives.append(branch)
        }
        return alternatives.joined(separator: "|")
    }

    // The indexes of the texts that `grep -E` selects, in one run with one text per line.
    private static func grepMatches(pattern: String, texts: [String]) throws -> Set<Int> {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/grep")
        process.arguments = ["-E", "-n", "-e", pattern]
        process.environment = ["LC_ALL": "C"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data((texts.joined(separator: "\n") + "\n").utf8))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus <= 1, "grep -E failed on \(pattern)")
        var lines = Set<Int>()
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            if let number = Int(line.prefix { $0 != ":" }) { lines.insert(number - 1) }
        }
        return lines
    }

    @Test(
        "pathological patterns finish in linear time",
        arguments: [
            ("(a*)*b", "a"), ("(a|a)*c", "a"), ("(x+x+)+y", "x"), ("(a|aa)*$b", "a"),
            ("^(a?){50}a{50}c", "a"),
        ])
    func pathological(_ entry: (String, String)) throws {
        let (pattern, letter) = entry
        let regex = try ExtendedRegex(checked: pattern)
        // Steps, not seconds: a linear engine spends at most about four times the steps on four
        // times the text (an anchored pattern stops early and spends the same), a quadratic
        // one sixteen times. The budget is far above what a linear engine needs for 100,000
        // characters, so running out of it is a failure too.
        func steps(_ length: Int) throws -> Int {
            let budget = 100_000_000
            var spent = MatchBudget(steps: budget)
            #expect(try regex.matches(String(repeating: letter, count: length), budget: &spent) == false)
            return budget - spent.remaining
        }
        let short = try steps(25_000)
        let long = try steps(100_000)
        let ratio = Double(long) / Double(short)
        #expect(ratio < 5, "\(short) steps for 25,000 characters, \(long) for 100,000")
    }

    @Test("the budget runs out with limitExceeded and is shared across calls")
    func budgetRunsOut() throws {
        let regex = try ExtendedRegex(checked: "(.*a){20}z")
        let text = String(repeating: "ab", count: 500)
        var budget = MatchBudget(steps: 1_000_000)
        var calls = 0
        var caught: CliptabError?
        while calls < 100 {
            do {
                _ = try regex.matches(text, budget: &budget)
                calls += 1
            } catch {
                caught = error
                break
            }
        }
        #expect(caught?.code == .limitExceeded)
        #expect(caught?.message.contains("(.*a){20}z") == true)
        #expect(calls >= 1 && calls < 100)
        #expect(budget.remaining == 0)
        // A spent budget refuses even a trivial match.
        #expect(throws: CliptabError.self) { try ExtendedRegex(checked: "x").matches("x", budget: &budget) }
    }

    @Test("a match spends few steps and leaves the rest of the budget")
    func budgetSpentProportionally() throws {
        var budget = MatchBudget(steps: 10_000)
        #expect(try ExtendedRegex(checked: "b").matches("ab", budget: &budget))
        #expect(budget.remaining > 9_000 && budget.remaining < 10_000)
        // An anchored pattern stops once no thread is alive, whatever the text's length.
        var anchored = MatchBudget(steps: 10_000)
        #expect(
            try ExtendedRegex(checked: "^ab").matches(
                "ax" + String(repeating: "y", count: 100_000), budget: &anchored)
                == false)
        #expect(anchored.remaining > 9_000)
        // Class look-ups of non-ASCII scalars are cached: text of ever new scalars costs more
        // (about 30 steps a miss) than text that repeats one, and both give the right answer.
        let regex = try ExtendedRegex(checked: "[[:alpha:]]q")
        let distinct = String(String.UnicodeScalarView((0x4E00..<0x4E00 + 1_000).map { Unicode.Scalar($0)! }))
        let repeated = String(repeating: "日", count: 1_000)
        var distinctBudget = MatchBudget(steps: 1_000_000)
        var repeatedBudget = MatchBudget(steps: 1_000_000)
        #expect(try regex.matches(distinct, budget: &distinctBudget) == false)
        #expect(try regex.matches(repeated, budget: &repeatedBudget) == false)
        #expect(repeatedBudget.remaining - distinctBudget.remaining > 25_000)
        #expect(try regex.matches(repeated + "q", budget: &repeatedBudget))
    }

    @Test(
        "bad patterns are invalidArgument with the position",
        arguments: [
            ("(ab", "character 1", "unmatched `(`"),
            ("a(b(c)", "character 2", "unmatched `(`"),
            ("ab)", "character 3", "unmatched `)`"),
            ("a{2,1}", "character 2", "greater than its maximum"),
            ("a{256}", "character 2", "over 255"),
            ("a{1,256}", "character 2", "over 255"),
            ("a{", "character 2", "interval"),
            ("a{1", "character 2", "interval"),
            ("a{x}", "character 2", "interval"),
            ("a{,}", "character 2", "no bound"),
            ("a{1,2", "character 2", "interval"),
            ("ab\\", "character 3", "lone `\\`"),
            ("[[:alfa:]]", "character 2", "unknown character class `[:alfa:]`"),
            ("[[:alpha:]", "character 1", "unterminated bracket"),
            ("[[:alpha", "character 2", "unterminated `[:`"),
            ("[]", "character 1", "unterminated bracket"),
            ("[^]", "character 1", "unterminated bracket"),
            ("x[]a", "character 2", "unterminated bracket"),
            ("[z-a]", "character 2", "ends before it starts"),
            ("[[:digit:]-z]", "character 2", "cannot start a range"),
            ("[a-[:digit:]]", "character 4", "cannot end a range"),
            ("[[.ab.]]", "character 2", "exactly one character"),
            ("[:alpha:]", "character 1", "[[:alpha:]]"),
            ("*a", "character 1", "nothing to repeat"),
            ("a|+b", "character 3", "nothing to repeat"),
            ("(?a)", "character 2", "nothing to repeat"),
            ("{2}", "character 1", "nothing to repeat"),
            ("^*", "character 2", "cannot repeat an anchor"),
            ("a$+", "character 3", "cannot repeat an anchor"),
            ("\\d", "character 1", "`\\d` is not part of POSIX"),
            ("(a)\\1", "character 4", "back-references"),
        ])
    func badPatterns(_ entry: (String, String, String)) throws {
        let (pattern, position, reason) = entry
        let error = compileError(pattern)
        #expect(error?.code == .invalidArgument, "pattern \(pattern)")
        #expect(error?.message.contains(position) == true, "\(error?.message ?? "no error")")
        #expect(error?.message.contains(reason) == true, "\(error?.message ?? "no error")")
    }

    @Test("patterns too large or too deep are limitExceeded")
    func tooLarge() throws {
        for pattern in [
            "(a{255}){255}", "((a{100}){100}){100}", String(repeating: "a", count: 20_001),
            String(repeating: "(", count: 300) + "a" + String(repeating: ")", count: 300),
            "a" + String(repeating: "{0}", count: 300),
        ] {
            let error = compileError(pattern)
            #expect(error?.code == .limitExceeded, "\(pattern.prefix(30))…")
        }
        #expect(
            compileError("a" + String(repeating: "{0}", count: 300))?.message.contains("levels deep") == true)
        #expect(compileError("(a{255}){255}")?.message.contains("too large") == true)
        // Just inside the limits.
        _ = try ExtendedRegex(checked: "(a{255}){70}")
        _ = try ExtendedRegex(String(repeating: "(", count: 150) + "a" + String(repeating: ")", count: 150))
        // Stacked `*`, `+` and `?` merge instead of nesting.
        #expect(try matches("^a" + String(repeating: "*+?", count: 1_000) + "$", "aaa"))
    }
}

/// The engine's own errors, before the model maps them to the contract's.
@Suite("PosixRegex errors")
struct RegexErrorTests {
    @Test("a bad pattern and a pattern over a limit are told apart, naming the pattern")
    func kinds() throws {
        let bad = #expect(throws: RegexError.self) { _ = try ExtendedRegex("a(b") }
        #expect(bad?.kind == .invalidPattern)
        #expect(bad?.message.contains("\"a(b\"") == true, "\(bad?.message ?? "")")
        let large = #expect(throws: RegexError.self) { _ = try ExtendedRegex("(a{255}){255}") }
        #expect(large?.kind == .limitExceeded)
        #expect(CliptabError(try #require(bad)).code == .invalidArgument)
        #expect(CliptabError(try #require(large)).code == .limitExceeded)
    }

    @Test("matching spends the steps it is given and gives up when they run out")
    func steps() throws {
        let regex = try ExtendedRegex("(a|a)*c")
        var scratch = RegexScratch()
        var steps = 1_000_000
        #expect(try regex.matches("aaab", steps: &steps, scratch: &scratch) == false)
        #expect(steps < 1_000_000 - ExtendedRegex.callSteps)
        var few = 10
        let spent = #expect(throws: RegexError.self) {
            _ = try regex.matches(String(repeating: "a", count: 1000), steps: &few, scratch: &scratch)
        }
        #expect(spent?.kind == .limitExceeded)
        #expect(few == 0)
    }
}
