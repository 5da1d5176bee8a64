// SPDX-License-Identifier: MIT

/// A place in a YAML text: 1-based line and column (columns count characters).
public struct YAMLMark: Equatable, Sendable {
    /// The line, from 1.
    public var line: Int
    /// The column, from 1, in characters.
    public var column: Int

    /// A mark at `line`, `column`.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// The mark as messages write it: `line 7, column 5`.
    public var description: String { "line \(line), column \(column)" }
}

/// How the emitter writes a scalar.
public enum YAMLScalarStyle: Equatable, Sendable {
    /// The most readable style that keeps the text byte for byte: plain, a literal block
    /// for multi-line text, quoted otherwise.
    case exact
    /// Plain if the text allows it, else quoted (for keys and words).
    case plain
}

/// One node of a YAML document: every scalar is a string, whatever it looks like (no
/// booleans or numbers), and every node knows where it starts.
public struct YAMLNode: Equatable, Sendable {
    /// What the node holds.
    public indirect enum Content: Equatable, Sendable {
        /// A string, with the style to write it in (ignored when read).
        case scalar(String, YAMLScalarStyle)
        /// Items in order; `flow` writes them on one line in brackets.
        case sequence([YAMLNode], flow: Bool)
        /// Key–value pairs in order; keys are scalars, each once.
        case mapping([(key: YAMLNode, value: YAMLNode)])

        /// Two contents are equal when their strings, items or pairs are (styles ignored).
        public static func == (lhs: Content, rhs: Content) -> Bool {
            switch (lhs, rhs) {
            case (.scalar(let a, _), .scalar(let b, _)): return a == b
            case (.sequence(let a, _), .sequence(let b, _)): return a == b
            case (.mapping(let a), .mapping(let b)):
                return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
            default: return false
            }
        }
    }

    /// The node's content.
    public var content: Content
    /// Where the node starts (1:1 for nodes built to be written).
    public var mark: YAMLMark

    /// A node of `content` at `mark`.
    public init(_ content: Content, at mark: YAMLMark = YAMLMark(line: 1, column: 1)) {
        self.content = content
        self.mark = mark
    }

    /// A scalar node of `text`.
    public static func scalar(_ text: String, style: YAMLScalarStyle = .exact) -> YAMLNode {
        YAMLNode(.scalar(text, style))
    }

    /// The node's string, if it is a scalar.
    public var string: String? {
        if case .scalar(let text, _) = content { return text }
        return nil
    }

    /// A word for the node's kind in messages: "a string", "a list", "a mapping".
    public var kindDescription: String {
        switch content {
        case .scalar: return "a string"
        case .sequence: return "a list"
        case .mapping: return "a mapping"
        }
    }
}
