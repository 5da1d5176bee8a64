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
    /// release build: `swiftc -O -wmo CliptabError.swift ExtendedRegex.swift bench.swift`, where
    /// `bench.swift` spends 400 million steps on each of `(a|a)*c`, `(x+x+)+y` (200,000 `a` or
    /// `x`), `(.*a){12}z`, `(a|b|c|d|e|f)*z`, class-heavy patterns over repeated and over
    /// all-distinct CJK text, and one call per row over a million short rows. The rates ranged
    /// from about 210 (all-distinct CJK text, `(x+x+)+y`) to 395 (`(a|b|c|d|e|f)*z`) million
    /// steps per second, so 200 million steps take 0.5 to 0.95 s; a busy machine stretches that.
    public static let defaultSteps = 200_000_000

    /// Steps left; matching throws `limitExceeded` when it would go below zero.
    public var remaining: Int

    /// A budget of `steps` steps.
    public init(steps: Int) {
        remaining = steps
    }
}

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
    private let code: [Instruction]
    private let sets: [ScalarSet]
    // True when no thread can start after the first position (every branch begins with
    // `^`), so the search can stop as soon as no thread is alive.
    private let startsOnlyAtTextStart: Bool

    /// Compiles `pattern`; a bad pattern throws `invalidArgument` saying where and why, a
    /// pattern too large once expanded throws `limitExceeded`.
    public init(_ pattern: String) throws {
        self.pattern = pattern
        var parser = Parser(pattern: pattern)
        let root = try parser.parse()
        let size = Compiler.size(of: root) + 1
        if size > Self.maxProgramSize {
            throw CliptabError(
                .limitExceeded,
                "the regular expression \(quoted(pattern)) is too large once its repetitions are "
                    + "expanded (more than \(Self.maxProgramSize) states); use smaller intervals"
            )
        }
        var compiler = Compiler()
        compiler.code.reserveCapacity(size)
        compiler.emit(root)
        compiler.code.append(.match)
        code = compiler.code
        sets = parser.sets
        var probe = Matcher(code: code, sets: sets, budget: Int.max)
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
        var matcher = Matcher(code: code, sets: sets, budget: budget.remaining - 64)
        let found = matcher.run(text, startsOnlyAtTextStart: startsOnlyAtTextStart)
        budget.remaining = max(matcher.remaining, 0)
        guard let found else {
            throw CliptabError(
                .limitExceeded,
                "matching the regular expression \(quoted(pattern)) against the rows is too costly "
                    + "(the budget of steps is spent); simplify the pattern (fewer nested repetitions, "
                    + "intervals or alternatives) or delete from fewer or shorter rows"
            )
        }
        return found
    }
}

// MARK: - Program

private enum Instruction: Sendable {
    case scalar(UInt32)
    case any
    case set(Int)
    case split(Int, Int)
    case jump(Int)
    case textStart
    case textEnd
    case match
}

private enum CharacterClass: String, CaseIterable, Sendable {
    case alpha, digit, alnum, upper, lower, space, blank, punct, print, graph, cntrl, xdigit

    // ASCII follows the C locale exactly; beyond ASCII the classes follow the Unicode
    // properties that glibc's UTF-8 locales also derive theirs from.
    func contains(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 128 {
            let byte = UInt8(value)
            switch self {
            case .alpha: return isASCIILetter(byte)
            case .digit: return isASCIIDigit(byte)
            case .alnum: return isASCIILetter(byte) || isASCIIDigit(byte)
            case .upper: return byte >= 0x41 && byte <= 0x5A
            case .lower: return byte >= 0x61 && byte <= 0x7A
            case .space: return byte == 0x20 || (byte >= 0x09 && byte <= 0x0D)
            case .blank: return byte == 0x20 || byte == 0x09
            case .punct: return byte > 0x20 && byte < 0x7F && !isASCIILetter(byte) && !isASCIIDigit(byte)
            case .print: return byte >= 0x20 && byte < 0x7F
            case .graph: return byte > 0x20 && byte < 0x7F
            case .cntrl: return byte < 0x20 || byte == 0x7F
            case .xdigit:
                return isASCIIDigit(byte) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x66)
            }
        }
        let properties = scalar.properties
        let category = properties.generalCategory
        switch self {
        case .alpha: return properties.isAlphabetic
        case .digit, .xdigit: return false
        case .alnum: return properties.isAlphabetic || category == .decimalNumber
        case .upper: return properties.isUppercase
        case .lower: return properties.isLowercase
        case .space: return properties.isWhitespace
        case .blank: return category == .spaceSeparator
        case .punct:
            switch category {
            case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
                .initialPunctuation, .finalPunctuation, .otherPunctuation, .mathSymbol,
                .currencySymbol, .modifierSymbol, .otherSymbol:
                return true
            default: return false
            }
        case .print, .graph:
            switch category {
            case .control, .surrogate, .unassigned, .lineSeparator, .paragraphSeparator: return false
            case .spaceSeparator: return self == .print
            default: return true
            }
        case .cntrl:
            return category == .control || category == .lineSeparator || category == .paragraphSeparator
        }
    }
}

private func isASCIILetter(_ byte: UInt8) -> Bool {
    (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
}

private func isASCIIDigit(_ byte: UInt8) -> Bool {
    byte >= 0x30 && byte <= 0x39
}

private struct ScalarSet: Sendable {
    let negated: Bool
    let ranges: [ClosedRange<UInt32>]
    let classes: [CharacterClass]
    var hasClasses: Bool { !classes.isEmpty }
    // Membership of the 128 ASCII scalars, negation included, so that the common case is
    // a shift and a mask.
    private var asciiLow: UInt64 = 0
    private var asciiHigh: UInt64 = 0

    init(negated: Bool, ranges: [ClosedRange<UInt32>], classes: [CharacterClass]) {
        self.negated = negated
        self.ranges = ranges
        self.classes = classes
        for value in UInt32(0)..<128 where slowContains(Unicode.Scalar(UInt8(value))) {
            if value < 64 {
                asciiLow |= 1 << UInt64(value)
            } else {
                asciiHigh |= 1 << UInt64(value - 64)
            }
        }
    }

    func contains(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 64 { return asciiLow >> UInt64(value) & 1 == 1 }
        if value < 128 { return asciiHigh >> UInt64(value - 64) & 1 == 1 }
        return slowContains(scalar)
    }

    private func slowContains(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        var hit = false
        for range in ranges where range.contains(value) {
            hit = true
            break
        }
        if !hit {
            for characterClass in classes where characterClass.contains(scalar) {
                hit = true
                break
            }
        }
        return hit != negated
    }
}

// MARK: - Parsing

private indirect enum Node {
    case empty
    case scalar(UInt32)
    case any
    case set(Int)
    case textStart
    case textEnd
    case concatenation([Node])
    case alternation([Node])
    case repetition(Node, min: Int, max: Int?)
}

// A node with the height of its tree, which bounds the recursion of the compiler and of
// the tree's own destruction.
private struct Piece {
    var node: Node
    var height: Int
    var isAnchor = false
}

// One open group: the alternatives closed so far and the one being read.
private struct GroupFrame {
    var openedAt: Int
    var alternatives: [Piece] = []
    var current: [Piece] = []
}

private struct Parser {
    let pattern: String
    let scalars: [Unicode.Scalar]
    var index = 0
    var sets: [ScalarSet] = []

    init(pattern: String) {
        self.pattern = pattern
        scalars = Array(pattern.unicodeScalars)
    }

    // Iterative rather than recursive descent, so that no pattern can exhaust the stack
    // before the nesting limit is checked.
    mutating func parse() throws -> Node {
        var stack = [GroupFrame(openedAt: -1)]
        while index < scalars.count {
            let scalar = scalars[index]
            let position = index
            index += 1
            switch scalar {
            case "(":
                if stack.count > ExtendedRegex.maxNesting {
                    throw tooDeep(at: position)
                }
                stack.append(GroupFrame(openedAt: position))
            case ")":
                guard stack.count > 1 else {
                    throw invalid("unmatched `)`; write `\\)` for a literal parenthesis", at: position)
                }
                let frame = stack.removeLast()
                var group = try close(frame)
                group.isAnchor = false
                stack[stack.count - 1].current.append(group)
            case "|":
                let alternative = try concatenate(stack[stack.count - 1].current)
                stack[stack.count - 1].alternatives.append(alternative)
                stack[stack.count - 1].current = []
            case "*", "+", "?", "{":
                var bounds: (min: Int, max: Int?)
                switch scalar {
                case "*": bounds = (0, nil)
                case "+": bounds = (1, nil)
                case "?": bounds = (0, 1)
                default: bounds = try parseInterval(openedAt: position)
                }
                guard var last = stack[stack.count - 1].current.popLast() else {
                    throw invalid(
                        "`\(scalar)` has nothing to repeat; write `\\\(scalar)` for a literal", at: position)
                }
                if last.isAnchor {
                    throw invalid("`\(scalar)` cannot repeat an anchor (`^` or `$`)", at: position)
                }
                last = try repeating(last, min: bounds.min, max: bounds.max, at: position)
                stack[stack.count - 1].current.append(last)
            case "^":
                stack[stack.count - 1].current.append(Piece(node: .textStart, height: 1, isAnchor: true))
            case "$":
                stack[stack.count - 1].current.append(Piece(node: .textEnd, height: 1, isAnchor: true))
            case ".":
                stack[stack.count - 1].current.append(Piece(node: .any, height: 1))
            case "[":
                let set = try parseBracket(openedAt: position)
                sets.append(set)
                stack[stack.count - 1].current.append(Piece(node: .set(sets.count - 1), height: 1))
            case "\\":
                guard index < scalars.count else {
                    throw invalid(
                        "the pattern ends with a lone `\\`; write `\\\\` for a backslash", at: position)
                }
                let escaped = scalars[index]
                index += 1
                if escaped.value < 128
                    && (isASCIILetter(UInt8(escaped.value)) || isASCIIDigit(UInt8(escaped.value)))
                {
                    throw invalid(
                        "`\\\(escaped)` is not part of POSIX extended regular expressions (no "
                            + "back-references or shorthand classes); use a bracket expression such as "
                            + "`[[:digit:]]`",
                        at: position)
                }
                stack[stack.count - 1].current.append(Piece(node: .scalar(escaped.value), height: 1))
            default:
                stack[stack.count - 1].current.append(Piece(node: .scalar(scalar.value), height: 1))
            }
        }
        guard stack.count == 1 else {
            throw invalid(
                "unmatched `(`; write `\\(` for a literal parenthesis", at: stack[stack.count - 1].openedAt)
        }
        return try close(stack[0]).node
    }

    private func close(_ frame: GroupFrame) throws -> Piece {
        let last = try concatenate(frame.current)
        if frame.alternatives.isEmpty { return last }
        let branches = frame.alternatives + [last]
        let height = branches.map(\.height).max()! + 1
        try checkHeight(height, at: frame.openedAt)
        return Piece(node: .alternation(branches.map(\.node)), height: height)
    }

    private func concatenate(_ pieces: [Piece]) throws -> Piece {
        if pieces.isEmpty { return Piece(node: .empty, height: 1) }
        if pieces.count == 1 { return pieces[0] }
        let height = pieces.map(\.height).max()! + 1
        try checkHeight(height, at: index - 1)
        return Piece(node: .concatenation(pieces.map(\.node)), height: height)
    }

    private func repeating(_ piece: Piece, min: Int, max: Int?, at position: Int) throws -> Piece {
        // `*`, `+` and `?` applied to one another give one of them again; merging them keeps
        // `a*****…` from building a deep tree.
        if case .repetition(let body, let innerMin, let innerMax) = piece.node,
            innerMin <= 1, innerMax == 1 || innerMax == nil, min <= 1, max == 1 || max == nil
        {
            let merged: Int? = (innerMax == nil || max == nil) ? nil : 1
            return Piece(node: .repetition(body, min: innerMin * min, max: merged), height: piece.height)
        }
        try checkHeight(piece.height + 1, at: position)
        return Piece(node: .repetition(piece.node, min: min, max: max), height: piece.height + 1)
    }

    private func checkHeight(_ height: Int, at position: Int) throws {
        if height > ExtendedRegex.maxNesting { throw tooDeep(at: position) }
    }

    // Reads `m}`, `m,}`, `m,n}` or `,n}` after a `{`.
    private mutating func parseInterval(openedAt position: Int) throws -> (min: Int, max: Int?) {
        let usage =
            "an interval is `{m}`, `{m,}` or `{m,n}` with 0 <= m <= n <= 255; write `\\{` for a literal brace"
        let low = readNumber()
        var high: Int?
        if index < scalars.count && scalars[index] == "," {
            index += 1
            high = readNumber()
            if low == nil && high == nil {
                throw invalid("`{,}` has no bound; \(usage)", at: position)
            }
        } else {
            guard low != nil else { throw invalid("bad interval; \(usage)", at: position) }
            high = low
        }
        guard index < scalars.count, scalars[index] == "}" else {
            throw invalid("unterminated or bad interval; \(usage)", at: position)
        }
        index += 1
        let min = low ?? 0
        if min > 255 || (high ?? 0) > 255 {
            throw invalid("interval bound over 255 (RE_DUP_MAX); \(usage)", at: position)
        }
        if let high, high < min {
            throw invalid(
                "interval minimum \(min) is greater than its maximum \(high); \(usage)", at: position)
        }
        return (min, high)
    }

    // Digits up to a value of 256 at most (larger ones are reported as over 255).
    private mutating func readNumber() -> Int? {
        var value: Int?
        while index < scalars.count, let digit = scalars[index].asciiDigitValue {
            value = Swift.min((value ?? 0) * 10 + digit, 256)
            index += 1
        }
        return value
    }

    // Reads a bracket expression after its `[` (POSIX: `]` first is literal, backslash is
    // literal, `-` first or last is literal).
    private mutating func parseBracket(openedAt position: Int) throws -> ScalarSet {
        var negated = false
        if index < scalars.count && scalars[index] == "^" {
            negated = true
            index += 1
        }
        let contentStart = index
        var ranges: [ClosedRange<UInt32>] = []
        var classes: [CharacterClass] = []
        var first = true
        while true {
            guard index < scalars.count else {
                throw invalid(
                    "unterminated bracket expression (a `]` right after `[` or `[^` is a literal; "
                        + "an empty bracket expression is not allowed)", at: position)
            }
            let scalar = scalars[index]
            if scalar == "]" && !first {
                index += 1
                break
            }
            first = false
            let elementPosition = index
            switch try bracketElement() {
            case .characterClass(let characterClass):
                if index + 1 < scalars.count && scalars[index] == "-" && scalars[index + 1] != "]" {
                    throw invalid("a character class cannot start a range", at: elementPosition)
                }
                classes.append(characterClass)
            case .scalar(let low):
                if index + 1 < scalars.count && scalars[index] == "-" && scalars[index + 1] != "]" {
                    index += 1
                    let endPosition = index
                    guard case .scalar(let high) = try bracketElement() else {
                        throw invalid("a character class cannot end a range", at: endPosition)
                    }
                    guard low <= high else {
                        throw invalid(
                            "range `\(Unicode.Scalar(low)!)-\(Unicode.Scalar(high)!)` ends before it starts "
                                + "(ranges follow code point order)", at: elementPosition)
                    }
                    ranges.append(low...high)
                } else {
                    ranges.append(low...low)
                }
            }
        }
        // GNU grep's helpful refusal: `[:alpha:]` alone is a bracket of the letters
        // `:alph`, almost never what was meant.
        let content = scalars[contentStart..<(index - 1)]
        if !negated, content.count >= 2, content.first == ":", content.last == ":" {
            throw invalid("character class syntax is `[[:alpha:]]`, not `[:alpha:]`", at: position)
        }
        return ScalarSet(negated: negated, ranges: ranges, classes: classes)
    }

    private enum BracketElement {
        case scalar(UInt32)
        case characterClass(CharacterClass)
    }

    private mutating func bracketElement() throws -> BracketElement {
        let position = index
        let scalar = scalars[index]
        index += 1
        guard scalar == "[", index < scalars.count, [":", "=", "."].contains(scalars[index]) else {
            return .scalar(scalar.value)
        }
        let kind = scalars[index]
        index += 1
        let nameStart = index
        while index + 1 < scalars.count && !(scalars[index] == kind && scalars[index + 1] == "]") {
            index += 1
        }
        guard index + 1 < scalars.count else {
            throw invalid("unterminated `[\(kind)`; it must end with `\(kind)]`", at: position)
        }
        let name = String(String.UnicodeScalarView(scalars[nameStart..<index]))
        index += 2
        if kind == ":" {
            guard let characterClass = CharacterClass(rawValue: name) else {
                let known = CharacterClass.allCases.map { "[:\($0.rawValue):]" }.joined(separator: " ")
                throw invalid("unknown character class `[:\(name):]`; known: \(known)", at: position)
            }
            return .characterClass(characterClass)
        }
        let nameScalars = Array(name.unicodeScalars)
        guard nameScalars.count == 1 else {
            throw invalid(
                "`[\(kind)\(name)\(kind)]` must hold exactly one character (no multi-character collating "
                    + "elements)", at: position)
        }
        return .scalar(nameScalars[0].value)
    }

    private func tooDeep(at position: Int) -> CliptabError {
        CliptabError(
            .limitExceeded,
            "the regular expression \(quoted(pattern)) nests groups and repetitions more than "
                + "\(ExtendedRegex.maxNesting) levels deep (at character \(position + 1))"
        )
    }

    private func invalid(_ reason: String, at position: Int) -> CliptabError {
        CliptabError(
            .invalidArgument,
            "bad regular expression \(quoted(pattern)) at character \(position + 1): \(reason)"
        )
    }
}

extension Unicode.Scalar {
    fileprivate var asciiDigitValue: Int? {
        value >= 0x30 && value <= 0x39 ? Int(value - 0x30) : nil
    }
}

// The pattern for a message: quoted, and cut if long so that the message stays readable.
private func quoted(_ pattern: String) -> String {
    let scalars = pattern.unicodeScalars
    if scalars.count <= 80 { return "\"\(pattern)\"" }
    return "\"\(String(String.UnicodeScalarView(scalars.prefix(77))))…\""
}

// MARK: - Compiling

private struct Compiler {
    var code: [Instruction] = []

    // The number of instructions `emit` writes for `node`, saturated well above the cap so
    // that `(a{255}){255}` nested further cannot overflow.
    static func size(of node: Node) -> Int {
        let ceiling = ExtendedRegex.maxProgramSize + 1
        switch node {
        case .empty: return 0
        case .scalar, .any, .set, .textStart, .textEnd: return 1
        case .concatenation(let nodes):
            return min(nodes.reduce(0) { min($0 + size(of: $1), ceiling) }, ceiling)
        case .alternation(let nodes):
            return min(nodes.reduce(2 * (nodes.count - 1)) { min($0 + size(of: $1), ceiling) }, ceiling)
        case .repetition(let body, let low, let high):
            let bodySize = size(of: body)
            let total: Int
            if let high {
                total = low * bodySize + (high - low) * (bodySize + 1)
            } else if low == 0 {
                total = bodySize + 2
            } else {
                total = low * bodySize + 1
            }
            return min(total, ceiling)
        }
    }

    mutating func emit(_ node: Node) {
        switch node {
        case .empty: break
        case .scalar(let value): code.append(.scalar(value))
        case .any: code.append(.any)
        case .set(let index): code.append(.set(index))
        case .textStart: code.append(.textStart)
        case .textEnd: code.append(.textEnd)
        case .concatenation(let nodes):
            for child in nodes { emit(child) }
        case .alternation(let branches):
            var jumps: [Int] = []
            for branch in branches.dropLast() {
                let split = code.count
                code.append(.split(split + 1, -1))
                emit(branch)
                jumps.append(code.count)
                code.append(.jump(-1))
                code[split] = .split(split + 1, code.count)
            }
            emit(branches[branches.count - 1])
            for jump in jumps { code[jump] = .jump(code.count) }
        case .repetition(let body, let low, let high):
            if let high {
                for _ in 0..<low { emit(body) }
                // `x{0,3}` as `(x(x(x)?)?)?`: every skip goes to the end.
                var splits: [Int] = []
                for _ in low..<high {
                    splits.append(code.count)
                    code.append(.split(code.count + 1, -1))
                    emit(body)
                }
                for split in splits { code[split] = .split(split + 1, code.count) }
            } else if low == 0 {
                let loop = code.count
                code.append(.split(loop + 1, -1))
                emit(body)
                code.append(.jump(loop))
                code[loop] = .split(loop + 1, code.count)
            } else {
                for _ in 0..<(low - 1) { emit(body) }
                let loop = code.count
                emit(body)
                code.append(.split(loop, code.count + 1))
            }
        }
    }
}

// MARK: - Matching

// The set of NFA states alive at one position: a sparse set, so that clearing is O(1)
// and membership needs no hashing.
private struct StateSet {
    var dense: [Int32]
    var sparse: [Int32]
    var count = 0

    init(capacity: Int) {
        dense = Array(repeating: 0, count: capacity)
        sparse = Array(repeating: 0, count: capacity)
    }

    func contains(_ state: Int) -> Bool {
        let slot = Int(sparse[state])
        return slot < count && Int(dense[slot]) == state
    }

    mutating func insert(_ state: Int) {
        sparse[state] = Int32(count)
        dense[count] = Int32(state)
        count += 1
    }
}

private struct Matcher {
    let code: [Instruction]
    let sets: [ScalarSet]
    var remaining: Int
    var pending: [Int32] = []
    var classCache: [UInt64] = []

    init(code: [Instruction], sets: [ScalarSet], budget: Int) {
        self.code = code
        self.sets = sets
        remaining = budget
        pending.reserveCapacity(2 * code.count + 2)
    }

    // True when the start state, at a position with these properties, reaches a state that
    // consumes a character or matches.
    mutating func startReaches(atStart: Bool, atEnd: Bool) -> Bool {
        var reached = StateSet(capacity: code.count)
        if follow(0, into: &reached, atStart: atStart, atEnd: atEnd) { return true }
        for slot in 0..<reached.count {
            switch code[Int(reached.dense[slot])] {
            case .scalar, .any, .set: return true
            default: continue
            }
        }
        return false
    }

    // Adds `state` and every state reachable from it without consuming to `set`; true when
    // that reaches the final state. Spends one step per state added.
    private mutating func follow(_ state: Int, into set: inout StateSet, atStart: Bool, atEnd: Bool) -> Bool {
        pending.append(Int32(state))
        while let top = pending.popLast() {
            let state = Int(top)
            if set.contains(state) { continue }
            set.insert(state)
            remaining -= 1
            switch code[state] {
            case .jump(let target): pending.append(Int32(target))
            case .split(let first, let second):
                pending.append(Int32(second))
                pending.append(Int32(first))
            case .textStart: if atStart { pending.append(Int32(state + 1)) }
            case .textEnd: if atEnd { pending.append(Int32(state + 1)) }
            case .match:
                pending.removeAll(keepingCapacity: true)
                return true
            case .scalar, .any, .set: break
            }
        }
        return false
    }

    // Membership of a non-ASCII scalar in a set with character classes, through a small
    // direct-mapped cache: a Unicode property look-up costs about 40 ns, and a miss with its
    // cache upkeep about thirty plain steps, while real text repeats its scalars. Misses are
    // charged so that the budget keeps measuring time even for text of ever new scalars.
    private mutating func classLookup(set index: Int, _ scalar: Unicode.Scalar) -> Bool {
        let slotsPerSet = 64
        if classCache.isEmpty { classCache = Array(repeating: 0, count: sets.count * slotsPerSet) }
        let value = UInt64(scalar.value)
        let slot = index * slotsPerSet + Int((value ^ value >> 6) & UInt64(slotsPerSet - 1))
        let entry = classCache[slot]
        // An entry is (value + 1) << 1 | membership, so that 0 means empty.
        if entry >> 1 == value + 1 { return entry & 1 == 1 }
        remaining -= 30 * sets[index].classes.count
        let member = sets[index].contains(scalar)
        classCache[slot] = (value + 1) << 1 | (member ? 1 : 0)
        return member
    }

    // True or false for a match anywhere, nil when the budget ran out first. A match found
    // by the step that spent the last of the budget still counts: its work is done.
    mutating func run(_ text: String, startsOnlyAtTextStart: Bool) -> Bool? {
        var current = StateSet(capacity: code.count)
        var next = StateSet(capacity: code.count)
        var scalars = text.unicodeScalars.makeIterator()
        var scalar = scalars.next()
        var atStart = true
        while true {
            let atEnd = scalar == nil
            // An unanchored search: a new thread starts at every position.
            if atStart || !startsOnlyAtTextStart {
                if follow(0, into: &current, atStart: atStart, atEnd: atEnd) { return true }
            }
            if remaining < 0 { return nil }
            guard let character = scalar else { return false }
            if current.count == 0 && startsOnlyAtTextStart { return false }
            scalar = scalars.next()
            let nextAtEnd = scalar == nil
            next.count = 0
            remaining -= current.count
            for slot in 0..<current.count {
                let state = Int(current.dense[slot])
                let consumed: Bool
                switch code[state] {
                case .scalar(let value): consumed = value == character.value
                case .any: consumed = true
                case .set(let index):
                    if character.value < 128 || !sets[index].hasClasses {
                        consumed = sets[index].contains(character)
                    } else {
                        consumed = classLookup(set: index, character)
                    }
                default: consumed = false
                }
                if consumed && follow(state + 1, into: &next, atStart: false, atEnd: nextAtEnd) {
                    return true
                }
            }
            swap(&current, &next)
            atStart = false
        }
    }
}
