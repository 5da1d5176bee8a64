// SPDX-License-Identifier: MIT

/// A JSON value for `--json` output, rendered on one line (RFC 8259).
///
/// Written here because the CLI does without Foundation; only output is needed.
indirect enum JSON {
    /// A string.
    case string(String)
    /// A signed integer.
    case integer(Int64)
    /// An unsigned integer (row ids, revisions).
    case unsigned(UInt64)
    /// `true` or `false`.
    case bool(Bool)
    /// `null`.
    case null
    /// An array.
    case array([JSON])
    /// An object, its keys in the order given.
    case object([(String, JSON)])

    /// An array of strings.
    static func strings(_ texts: [String]) -> JSON { .array(texts.map { .string($0) }) }

    /// The value as compact JSON text.
    var rendered: String {
        var text = ""
        render(into: &text)
        return text
    }

    private func render(into text: inout String) {
        switch self {
        case .string(let value): JSON.quote(value, into: &text)
        case .integer(let value): text += String(value)
        case .unsigned(let value): text += String(value)
        case .bool(let value): text += value ? "true" : "false"
        case .null: text += "null"
        case .array(let items):
            text += "["
            for (index, item) in items.enumerated() {
                if index > 0 { text += "," }
                item.render(into: &text)
            }
            text += "]"
        case .object(let members):
            text += "{"
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { text += "," }
                JSON.quote(key, into: &text)
                text += ":"
                value.render(into: &text)
            }
            text += "}"
        }
    }

    /// Appends `value` as a JSON string: `"` and `\` and the control characters escaped,
    /// everything else (non-ASCII included) as is.
    static func quote(_ value: String, into text: inout String) {
        text += "\""
        var plainStart = value.unicodeScalars.startIndex
        var index = plainStart
        let scalars = value.unicodeScalars
        while index != scalars.endIndex {
            let scalar = scalars[index]
            let escape: String?
            switch scalar {
            case "\"": escape = "\\\""
            case "\\": escape = "\\\\"
            case "\n": escape = "\\n"
            case "\r": escape = "\\r"
            case "\t": escape = "\\t"
            case "\u{08}": escape = "\\b"
            case "\u{0C}": escape = "\\f"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    let hex = String(scalar.value, radix: 16, uppercase: false)
                    escape = "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    escape = nil
                }
            }
            if let escape {
                text.unicodeScalars.append(contentsOf: scalars[plainStart..<index])
                text += escape
                plainStart = scalars.index(after: index)
            }
            index = scalars.index(after: index)
        }
        text.unicodeScalars.append(contentsOf: scalars[plainStart..<scalars.endIndex])
        text += "\""
    }
}
