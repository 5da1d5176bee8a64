// SPDX-License-Identifier: MIT

/// Parses a pattern into a `RegexNode` tree and the bracket sets it uses.
struct RegexParser {
    let pattern: String
    let scalars: [Unicode.Scalar]
    var index = 0
    var sets: [RegexScalarSet] = []
    // Characters, `.`, anchors and bracket expressions read so far, and the elements of all
    // bracket expressions: capped as they are read, so that no pattern builds a tree or a
    // set larger than the limits allow before they are checked.
    var atoms = 0
    var bracketElements = 0

    init(pattern: String) {
        self.pattern = pattern
        scalars = Array(pattern.unicodeScalars)
    }

    // Iterative rather than recursive descent, so that no pattern can exhaust the stack
    // before the nesting limit is checked.
    mutating func parse() throws -> RegexNode {
        var stack = [GroupFrame(openedAt: -1)]
        while index < scalars.count {
            let scalar = scalars[index]
            let position = index
            index += 1
            switch scalar {
            case "(", ")", "|", "*", "+", "?", "{": break
            default:
                atoms += 1
                if atoms > ExtendedRegex.maxProgramSize {
                    throw tooLarge(
                        "more than \(ExtendedRegex.maxProgramSize) characters, `.`, anchors and bracket expressions"
                    )
                }
            }
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
    private mutating func parseBracket(openedAt position: Int) throws -> RegexScalarSet {
        var negated = false
        if index < scalars.count && scalars[index] == "^" {
            negated = true
            index += 1
        }
        let contentStart = index
        var ranges: [ClosedRange<UInt32>] = []
        var classes: [RegexCharacterClass] = []
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
            bracketElements += 1
            if bracketElements > ExtendedRegex.maxBracketElements {
                throw tooLarge(
                    "more than \(ExtendedRegex.maxBracketElements) elements in its bracket expressions")
            }
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
        return RegexScalarSet(negated: negated, ranges: ranges, classes: classes)
    }

    private enum BracketElement {
        case scalar(UInt32)
        case characterClass(RegexCharacterClass)
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
            guard let characterClass = RegexCharacterClass(rawValue: name) else {
                let known = RegexCharacterClass.allCases.map { "[:\($0.rawValue):]" }.joined(separator: " ")
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

    private func tooDeep(at position: Int) -> RegexError {
        RegexError(
            .limitExceeded,
            "the regular expression \(ExtendedRegex.quoted(pattern)) nests groups and repetitions more than "
                + "\(ExtendedRegex.maxNesting) levels deep (at character \(position + 1))"
        )
    }

    private func tooLarge(_ what: String) -> RegexError {
        RegexError(
            .limitExceeded,
            "the regular expression \(ExtendedRegex.quoted(pattern)) is too large: it has \(what)")
    }

    private func invalid(_ reason: String, at position: Int) -> RegexError {
        RegexError(
            .invalidPattern,
            "bad regular expression \(ExtendedRegex.quoted(pattern)) at character \(position + 1): \(reason)"
        )
    }
}

extension RegexParser {
    /// A node with the height of its tree, which bounds the recursion of the compiler and of
    /// the tree's own destruction.
    struct Piece {
        var node: RegexNode
        var height: Int
        var isAnchor = false
    }

    /// One open group: the alternatives closed so far and the one being read.
    struct GroupFrame {
        var openedAt: Int
        var alternatives: [Piece] = []
        var current: [Piece] = []
    }
}

extension Unicode.Scalar {
    fileprivate var asciiDigitValue: Int? {
        value >= 0x30 && value <= 0x39 ? Int(value - 0x30) : nil
    }
}
