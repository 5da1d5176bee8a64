// SPDX-License-Identifier: MIT
import CYAML

/// One parser event, copied out of libyaml's `yaml_event_t` (which is freed at once).
struct YAMLEvent {
    /// The kinds of event.
    enum Kind: CustomStringConvertible {
        case streamStart, streamEnd, documentStart, documentEnd, alias, scalar
        case sequenceStart, sequenceEnd, mappingStart, mappingEnd, none

        var description: String {
            switch self {
            case .streamStart: return "start of the text"
            case .streamEnd: return "end of the text"
            case .documentStart: return "start of a document"
            case .documentEnd: return "end of a document"
            case .alias: return "alias"
            case .scalar: return "string"
            case .sequenceStart: return "list"
            case .sequenceEnd: return "end of a list"
            case .mappingStart: return "mapping"
            case .mappingEnd: return "end of a mapping"
            case .none: return "nothing"
            }
        }
    }

    /// The kind.
    var kind: Kind
    /// Where the event starts.
    var mark: YAMLMark
    /// A scalar's text.
    var value = ""
    /// The explicit tag, if any.
    var tag: String?
    /// Whether the node carries an anchor (`&name`).
    var hasAnchor = false

    init(_ event: yaml_event_t) {
        mark = YAMLMark(line: Int(event.start_mark.line) + 1, column: Int(event.start_mark.column) + 1)
        switch event.type {
        case YAML_STREAM_START_EVENT: kind = .streamStart
        case YAML_STREAM_END_EVENT: kind = .streamEnd
        case YAML_DOCUMENT_START_EVENT: kind = .documentStart
        case YAML_DOCUMENT_END_EVENT: kind = .documentEnd
        case YAML_ALIAS_EVENT:
            kind = .alias
            hasAnchor = true
        case YAML_SCALAR_EVENT:
            kind = .scalar
            let scalar = event.data.scalar
            // The length counts bytes; a "\0" escape may put a NUL inside, so never read
            // the value as a C string.
            if let bytes = scalar.value {
                value = String(
                    decoding: UnsafeBufferPointer(start: bytes, count: scalar.length), as: UTF8.self)
            }
            tag = scalar.tag.map { String(cString: $0) }
            hasAnchor = scalar.anchor != nil
        case YAML_SEQUENCE_START_EVENT:
            kind = .sequenceStart
            tag = event.data.sequence_start.tag.map { String(cString: $0) }
            hasAnchor = event.data.sequence_start.anchor != nil
        case YAML_SEQUENCE_END_EVENT: kind = .sequenceEnd
        case YAML_MAPPING_START_EVENT:
            kind = .mappingStart
            tag = event.data.mapping_start.tag.map { String(cString: $0) }
            hasAnchor = event.data.mapping_start.anchor != nil
        case YAML_MAPPING_END_EVENT: kind = .mappingEnd
        default: kind = .none
        }
    }
}
