// SPDX-License-Identifier: MIT
import CYAML

/// libyaml's emitter, writing one document of `YAMLNode`s to UTF-8 text.
///
/// Lines are never folded (unlimited width), non-ASCII text is written as it is, and each
/// scalar gets the style that reads back byte for byte (see `YAMLScalarStyle.exact`).
public final class YAMLEmitter {
    private let emitter: UnsafeMutablePointer<yaml_emitter_t>
    private let sink: Sink

    /// Where libyaml's write handler appends the text.
    private final class Sink {
        var bytes: [UInt8] = []
    }

    private init(emitter: UnsafeMutablePointer<yaml_emitter_t>, sink: Sink) {
        self.emitter = emitter
        self.sink = sink
    }

    /// An emitter writing to memory.
    ///
    /// The corresponding C function is `yaml_emitter_initialize`.
    public static func make() throws -> YAMLEmitter {
        let emitter = UnsafeMutablePointer<yaml_emitter_t>.allocate(capacity: 1)
        guard yaml_emitter_initialize(emitter) == 1 else {
            emitter.deallocate()
            throw YAMLError("the YAML emitter could not be made (out of memory)", at: nil)
        }
        let sink = Sink()
        // The emitter keeps the sink's address: the sink lives as long as the emitter.
        yaml_emitter_set_output(
            emitter,
            { data, buffer, size in
                guard let data, let buffer else { return 0 }
                let sink = Unmanaged<Sink>.fromOpaque(data).takeUnretainedValue()
                sink.bytes.append(contentsOf: UnsafeBufferPointer(start: buffer, count: size))
                return 1
            }, Unmanaged.passUnretained(sink).toOpaque())
        yaml_emitter_set_unicode(emitter, 1)
        yaml_emitter_set_width(emitter, -1)
        yaml_emitter_set_indent(emitter, 2)
        yaml_emitter_set_break(emitter, YAML_LN_BREAK)
        return YAMLEmitter(emitter: emitter, sink: sink)
    }

    deinit {
        yaml_emitter_delete(emitter)
        emitter.deallocate()
    }

    /// The text of a document whose root is `root`.
    public static func text(of root: YAMLNode) throws -> [UInt8] {
        let emitter = try make()
        return try emitter.emitDocument(root)
    }

    /// Writes one document (a stream of one implicit document) and returns the text.
    public func emitDocument(_ root: YAMLNode) throws -> [UInt8] {
        var event = yaml_event_t()
        yaml_stream_start_event_initialize(&event, YAML_UTF8_ENCODING)
        try emit(&event)
        yaml_document_start_event_initialize(&event, nil, nil, nil, 1)
        try emit(&event)
        try emitNode(root)
        yaml_document_end_event_initialize(&event, 1)
        try emit(&event)
        yaml_stream_end_event_initialize(&event)
        try emit(&event)
        return sink.bytes
    }

    private func emitNode(_ node: YAMLNode) throws {
        var event = yaml_event_t()
        switch node.content {
        case .scalar(let text, let style):
            let chosen = Self.scalarStyle(for: text, style)
            var bytes = Array(text.utf8)
            let made = bytes.withUnsafeMutableBufferPointer { buffer in
                yaml_scalar_event_initialize(
                    &event, nil, nil, buffer.baseAddress ?? nil, Int32(buffer.count), 1, 1, chosen)
            }
            guard made == 1 else { throw YAMLError("a string could not be written (out of memory)", at: nil) }
            try emit(&event)
        case .sequence(let items, let flow):
            yaml_sequence_start_event_initialize(
                &event, nil, nil, 1, flow ? YAML_FLOW_SEQUENCE_STYLE : YAML_BLOCK_SEQUENCE_STYLE)
            try emit(&event)
            for item in items { try emitNode(item) }
            yaml_sequence_end_event_initialize(&event)
            try emit(&event)
        case .mapping(let pairs):
            yaml_mapping_start_event_initialize(&event, nil, nil, 1, YAML_BLOCK_MAPPING_STYLE)
            try emit(&event)
            for pair in pairs {
                try emitNode(pair.key)
                try emitNode(pair.value)
            }
            yaml_mapping_end_event_initialize(&event)
            try emit(&event)
        }
    }

    /// The style asked of libyaml for `text`.
    ///
    /// libyaml itself falls back from plain to
    /// quoted, and from a literal block to double quotes, wherever the style would not
    /// read back exactly (indicators, `#`, `---`, leading or trailing spaces); what it does
    /// not guard against is decided here: characters that a reader turns into line breaks
    /// or drops (CR, NEL, the Unicode line and paragraph separators, a byte order mark) and
    /// other controls go in double quotes, where they are escaped.
    static func scalarStyle(for text: String, _ style: YAMLScalarStyle) -> yaml_scalar_style_t {
        if text.isEmpty { return YAML_DOUBLE_QUOTED_SCALAR_STYLE }
        var multiline = false
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0A: multiline = true
            case 0x00..<0x20, 0x7F...0x9F, 0x2028, 0x2029, 0xFEFF, 0xFFFE, 0xFFFF:
                return YAML_DOUBLE_QUOTED_SCALAR_STYLE
            default: continue
            }
        }
        if multiline && style == .exact { return YAML_LITERAL_SCALAR_STYLE }
        return multiline ? YAML_DOUBLE_QUOTED_SCALAR_STYLE : YAML_PLAIN_SCALAR_STYLE
    }

    /// Hands `event` to libyaml, which takes it over.
    ///
    /// The one place where the emitter's errors become `YAMLError`s. The corresponding C
    /// function is `yaml_emitter_emit`.
    private func emit(_ event: inout yaml_event_t) throws {
        guard yaml_emitter_emit(emitter, &event) == 1 else {
            let problem =
                emitter.pointee.problem.map { String(cString: $0) } ?? "the document could not be written"
            throw YAMLError(problem, at: nil)
        }
    }
}
