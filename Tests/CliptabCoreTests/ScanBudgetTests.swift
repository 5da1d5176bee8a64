// SPDX-License-Identifier: MIT
import CliptabCore
import PosixRegex
import Testing

/// The cost of one call stays proportional to its own input and the rows it touches: operand
/// and pattern work is done once per call, every scan spends one budget, and decoders stop
/// at the first row, section or value over a limit.
@Suite("Bounded work per call")
struct ScanBudgetTests {
    /// Runs `predicate` over `texts` with one budget of `steps`; the verdicts and the steps spent.
    static func scan(_ predicate: RowPredicate, _ texts: [String], steps: Int = MatchBudget.defaultSteps)
        throws
        -> (verdicts: [Bool], spent: Int)
    {
        var budget = MatchBudget(steps: steps)
        let verdicts = try texts.map { try predicate.matches($0, budget: &budget) }
        return (verdicts, budget.total - budget.remaining)
    }

    /// The plain reading of a substring test, to compare the fast path with.
    static func naiveContains(_ text: String, _ needle: String) -> Bool {
        let haystack = Array(text.utf8)
        let pattern = Array(needle.utf8)
        if pattern.isEmpty { return true }
        if haystack.count < pattern.count { return false }
        return (0...(haystack.count - pattern.count)).contains {
            haystack[$0..<($0 + pattern.count)].elementsEqual(pattern)
        }
    }

    /// The issue's case: a 1,000,000-byte operand over 10,000 one-character rows costs what
    /// the rows cost, not rows × operand.
    @Test("contains with a huge operand spends steps for the rows only")
    func containsHugeOperand() throws {
        let predicate = try RowPredicate(
            operator: "contains", operand: String(repeating: "a", count: 1_000_000))
        let rows = Array(repeating: "a", count: 10_000)
        let (verdicts, spent) = try Self.scan(predicate, rows)
        #expect(verdicts.allSatisfy { !$0 })
        #expect(spent == 10_000 * (MatchBudget.perRowSteps + 2))
    }

    /// The table built once gives the same answers as a plain search, repeated needles included.
    @Test("contains agrees with a plain search")
    func containsAgrees() throws {
        let texts = ["", "a", "aab", "abaabaab", "ababab", "xabaabx", "ééa", "aaaaaaab", "ba"]
        for needle in ["", "a", "ab", "aab", "abaab", "aaab", "é", "éa", "b"] {
            let predicate = try RowPredicate(operator: "contains", operand: needle)
            let (verdicts, _) = try Self.scan(predicate, texts)
            #expect(verdicts == texts.map { Self.naiveContains($0, needle) }, "needle \(needle)")
        }
    }

    /// Every text and numeric operator charges the one budget and ends in LimitExceeded naming it.
    @Test(
        "every operator spends the call's budget and names it when spent",
        arguments: ["equals", "contains", "prefix", "suffix", ">", "matches"])
    func everyOperatorCharged(op: String) throws {
        let predicate = try RowPredicate(operator: op, operand: op == ">" ? "1" : "x")
        let rows = Array(repeating: String(repeating: "7", count: 100), count: 1_000)
        let (_, spent) = try Self.scan(predicate, rows)
        #expect(spent >= 1_000 * MatchBudget.perRowSteps)
        let error = #expect(throws: CliptabError.self) {
            _ = try Self.scan(predicate, rows, steps: spent / 2)
        }
        #expect(error?.code == .limitExceeded)
        #expect(error?.message.contains("budget") == true, "\(error?.message ?? "")")
    }

    /// A plain scan charges each byte it reads, beyond the row's set-up: a scan charging the
    /// set-up alone would let 16 MiB rows be compared for 64 steps each.
    @Test(
        "equals, prefix, suffix and the numeric operators charge the bytes they read",
        arguments: [
            ("equals", String(repeating: "7", count: 100), 100), ("equals", "7", 0),
            ("prefix", String(repeating: "7", count: 40), 40),
            ("suffix", String(repeating: "7", count: 60), 60),
            ("prefix", String(repeating: "7", count: 500), 100), (">", "1", 100), ("<=", "-2.5", 100),
            ("!=", "7", 100),
        ])
    func plainScansChargeTheirBytes(op: String, operand: String, bytesPerRow: Int) throws {
        let predicate = try RowPredicate(operator: op, operand: operand)
        let rows = Array(repeating: String(repeating: "7", count: 100), count: 1_000)
        let (_, spent) = try Self.scan(predicate, rows)
        #expect(spent == 1_000 * (MatchBudget.perRowSteps + bytesPerRow), "\(op) spent \(spent)")
    }

    /// The issue's case: 19,999 bracket expressions over rows of "é": the matcher is set up
    /// once, so a row costs a constant few steps and the total grows with the rows only.
    @Test("matches sets its matcher up once per call, and each row is charged")
    func matchesSetUpOnce() throws {
        let pattern = String(repeating: "[a]", count: 19_999)
        let predicate = try RowPredicate(operator: "matches", operand: pattern)
        let (few, spentFew) = try Self.scan(predicate, Array(repeating: "é", count: 2_000))
        let (_, spentMany) = try Self.scan(predicate, Array(repeating: "é", count: 4_000))
        #expect(few.allSatisfy { !$0 })
        // The set-up (state sets for 20,000 states) is charged, once.
        #expect(spentFew >= 20_000 / 4 + 2_000 * MatchBudget.perRowSteps, "\(spentFew)")
        let perRow = (spentMany - spentFew) / 2_000
        #expect(perRow >= MatchBudget.perRowSteps && perRow < 2 * MatchBudget.perRowSteps, "\(perRow)")
        // A budget too small for 100,000 rows ends in LimitExceeded, not in minutes of work.
        let error = #expect(throws: CliptabError.self) {
            _ = try Self.scan(predicate, Array(repeating: "é", count: 100_000), steps: 1_000_000)
        }
        #expect(error?.code == .limitExceeded)
        #expect(error?.message.contains("scan budget") == true)
    }

    /// The same pattern with classes: the class cache is made once, charged once.
    @Test("a class-heavy pattern matches as the slow path does, over many rows")
    func classHeavySameAnswers() throws {
        let regex = try ExtendedRegex(checked: "[[:alpha:]][[:digit:]]é")
        var shared = MatchBudget(steps: MatchBudget.defaultSteps)
        for text in ["a1é", "éé", "x9", "Ω7é", "1aé", "zz3é"] {
            var fresh = MatchBudget(steps: MatchBudget.defaultSteps)
            #expect(
                try regex.matches(text, budget: &shared) == regex.matches(text, budget: &fresh), "\(text)")
        }
    }

    /// The regex parser checks its caps as it reads, before building anything large.
    @Test("patterns too long, with too many atoms or bracket elements, are refused by name")
    func parserCaps() throws {
        let cases: [(String, String)] = [
            (String(repeating: "a", count: ExtendedRegex.maxPatternBytes + 1), "bytes long"),
            (String(repeating: "[a]", count: 20_001), "bracket expressions"),
            ("[" + String(repeating: "b", count: ExtendedRegex.maxBracketElements + 1) + "]", "elements"),
        ]
        for (pattern, words) in cases {
            let error = #expect(throws: CliptabError.self) { _ = try ExtendedRegex(checked: pattern) }
            #expect(error?.code == .limitExceeded)
            #expect(error?.message.contains(words) == true, "\(error?.message ?? "")")
        }
    }

    /// The issue's case: 16 MiB of newlines as `lines` is refused at the first row over the
    /// limit, naming it.
    @Test("an import of 16 MiB of newlines stops at the row limit")
    func linesOfNewlines() throws {
        let recorder = ServiceRecorder()
        let error = #expect(throws: CliptabError.self) {
            _ = try recorder.service.importTable(
                "t", format: "lines", data: String(repeating: "\n", count: 16 << 20), replace: false)
        }
        #expect(error?.code == .limitExceeded)
        #expect(error?.message.contains("limit is 1000000") == true, "\(error?.message ?? "")")
    }

    /// Decoders stop at the first row, section or cell past the allowance, in every format.
    @Test("each format stops decoding at the allowance")
    func decodersStop() throws {
        let small = Limits(maxCellBytes: 8, maxRowsPerTable: 3, maxSectionsPerTable: 2)
        let allowance = ExchangeAllowance(tableName: "t", limits: small, keptRows: 1, keptSections: 0)
        let cases: [(ExchangeFormat, String, String)] = [
            (.lines, "a\nb\nc\n", "at least 4 rows"),
            (.lines, "##\n##\n##\n", "at least 3 sections"),
            (.lines, "123456789\n", "9 bytes"),
            (
                .tsv, "section\theader\tfooter\trow\ttext\n0\t\t\t0\ta\n0\t\t\t1\tb\n0\t\t\t2\tc\n",
                "at least 4 rows"
            ),
            (.json, #"{"sections": [{"rows": []}, {"rows": []}, {"rows": []}]}"#, "at least 3 sections"),
            (
                .json, #"{"sections": [{"rows": [{"text": "a"}, {"text": "b"}, {"text": "c"}]}]}"#,
                "at least 4 rows"
            ),
            (.json, #"{"sections": [{"rows": [{"text": "123456789"}]}]}"#, "9 bytes"),
            (.json, #"{"sections": [{"header": "123456789", "rows": []}]}"#, "header is 9 bytes"),
        ]
        for (format, data, words) in cases {
            let error = #expect(throws: CliptabError.self) {
                _ = try ExchangeCodec.decode(data, as: format, tableName: "t", allowance: allowance)
            }
            #expect(error?.code == .limitExceeded)
            #expect(error?.message.contains(words) == true, "\(format): \(error?.message ?? "")")
        }
        // Within the allowance the same data decodes as without one.
        let fits = "a\nb\n"
        #expect(
            try ExchangeCodec.decode(fits, as: .lines, tableName: "t", allowance: allowance)
                == ExchangeCodec.decode(fits, as: .lines, tableName: "t"))
    }

    /// Replacing a table's content deletes its rows, so it needs `delete` as well as `insert`.
    @Test("ImportTable with replace needs delete as well as insert")
    func replaceNeedsDelete() throws {
        let recorder = ServiceRecorder()
        try recorder.service.createTable("t")
        try recorder.service.insertRows("t", section: 0, row: 0, texts: ["keep"])
        try recorder.service.setAllowedActions("t", ["insert"])
        let error = #expect(throws: CliptabError.self) {
            _ = try recorder.service.importTable("t", format: "lines", data: "new\n", replace: true)
        }
        #expect(error?.code == .notPermitted)
        #expect(error?.message.contains("\"delete\"") == true)
        #expect(try recorder.service.cell(of: "t", section: 0, row: 0) == "keep")
        #expect(try recorder.service.importTable("t", format: "lines", data: "new\n", replace: false) == 1)
        try recorder.service.setAllowedActions("t", ["insert", "delete"])
        #expect(try recorder.service.importTable("t", format: "lines", data: "new\n", replace: true) == 1)
    }
}
