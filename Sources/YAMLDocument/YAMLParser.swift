// SPDX-License-Identifier: MIT
import CYAML

/// libyaml's parser over one text, read into a tree of `YAMLNode`s.
///
/// Bounded for any input: aliases are refused (a "billion laughs" text fails at its first
/// alias, before anything is expanded), nesting is at most `maxDepth` deep, and tags other
/// than the string tag are refused, so that every scalar is a string.
public final class YAMLParser {
    /// The deepest nesting of lists and mappings read.
    public static let maxDepth = 64

    private let parser: UnsafeMutablePointer<yaml_parser_t>
    // libyaml reads the text in place: it lives as long as the parser.
    private let input: UnsafeMutableBufferPointer<UInt8>

    private init(parser: UnsafeMutablePointer<yaml_parser_t>, input: UnsafeMutableBufferPointer<UInt8>) {
        self.parser = parser
        self.input = input
    }

    /// A parser over `text`.
    ///
    /// The corresponding C function is `yaml_parser_initialize`.
    public static func make(_ text: some Collection<UInt8>) throws -> YAMLParser {
        let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
        guard yaml_parser_initialize(parser) == 1 else {
            parser.deallocate()
            throw YAMLError("the YAML parser could not be made (out of memory)", at: nil)
        }
        let input = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(1, text.count))
        _ = input.initialize(from: text)
        yaml_parser_set_input_string(parser, input.baseAddress, text.count)
        return YAMLParser(parser: parser, input: input)
    }

    deinit {
        yaml_parser_delete(parser)
        parser.deallocate()
        input.deallocate()
    }

    /// The root node of the one document of `text`, or nil for a text without one.
    ///
    /// Empty text, or only comments, has none; a second document is an error.
    public static func document(_ text: some Collection<UInt8>) throws -> YAMLNode? {
        try make(text).readDocument()
    }

    /// The root node of the text's only document, or nil when it has none.
    public func readDocument() throws -> YAMLNode? {
        var root: YAMLNode?
        while true {
            let event = try next()
            switch event.kind {
            case .streamStart, .documentEnd: continue
            case .streamEnd: return root
            case .documentStart:
                if root != nil {
                    throw YAMLError(
                        "a second document (after \"---\"); a table file holds one", at: event.mark)
                }
                root = try readNode(try next(), depth: 0)
            default:
                throw YAMLError("unexpected \(event.kind)", at: event.mark)
            }
        }
    }

    /// The node that starts with `event`, read to its end.
    private func readNode(_ event: YAMLEvent, depth: Int) throws -> YAMLNode {
        switch event.kind {
        case .alias:
            throw YAMLError("aliases (*name) are not allowed in a table file", at: event.mark)
        case .scalar:
            try checkTag(event, allowed: "tag:yaml.org,2002:str")
            return YAMLNode(.scalar(event.value, .exact), at: event.mark)
        case .sequenceStart:
            try checkTag(event, allowed: "tag:yaml.org,2002:seq")
            try checkDepth(depth, event)
            var items: [YAMLNode] = []
            while true {
                let item = try next()
                if item.kind == .sequenceEnd { break }
                items.append(try readNode(item, depth: depth + 1))
            }
            return YAMLNode(.sequence(items, flow: false), at: event.mark)
        case .mappingStart:
            try checkTag(event, allowed: "tag:yaml.org,2002:map")
            try checkDepth(depth, event)
            var pairs: [(key: YAMLNode, value: YAMLNode)] = []
            var seen = Set<String>()
            while true {
                let keyEvent = try next()
                if keyEvent.kind == .mappingEnd { break }
                let key = try readNode(keyEvent, depth: depth + 1)
                guard let word = key.string else {
                    throw YAMLError("a key must be a string, not \(key.kindDescription)", at: key.mark)
                }
                guard seen.insert(word).inserted else {
                    throw YAMLError(
                        "the key \(Self.quoted(word)) appears twice in this mapping", at: key.mark)
                }
                pairs.append((key, try readNode(try next(), depth: depth + 1)))
            }
            return YAMLNode(.mapping(pairs), at: event.mark)
        default:
            throw YAMLError("unexpected \(event.kind)", at: event.mark)
        }
    }

    private func checkDepth(_ depth: Int, _ event: YAMLEvent) throws {
        if depth >= Self.maxDepth {
            throw YAMLError("nested more than \(Self.maxDepth) levels deep", at: event.mark)
        }
    }

    private func checkTag(_ event: YAMLEvent, allowed: String) throws {
        guard let tag = event.tag, tag != "!", tag != allowed else { return }
        throw YAMLError(
            "the tag \(Self.quoted(tag)) is not allowed: every value of a table file is a string",
            at: event.mark)
    }

    /// `"word"`, short.
    static func quoted(_ word: String) -> String {
        let short = word.unicodeScalars.count > 40 ? String(word.unicodeScalars.prefix(40)) + "…" : word
        return "\"" + short + "\""
    }

    /// The next event, copied out of libyaml's.
    ///
    /// The one place where the parser's errors become `YAMLError`s. The corresponding C
    /// function is `yaml_parser_parse`.
    private func next() throws -> YAMLEvent {
        var event = yaml_event_t()
        guard yaml_parser_parse(parser, &event) == 1 else {
            let problem = parser.pointee.problem.map { String(cString: $0) } ?? "the text is not valid YAML"
            let mark = parser.pointee.problem_mark
            var message = problem
            if let context = parser.pointee.context {
                let contextMark = parser.pointee.context_mark
                message +=
                    " (\(String(cString: context)) at line \(contextMark.line + 1), column \(contextMark.column + 1))"
            }
            throw YAMLError(message, at: YAMLMark(line: Int(mark.line) + 1, column: Int(mark.column) + 1))
        }
        defer { yaml_event_delete(&event) }
        return YAMLEvent(event)
    }
}
