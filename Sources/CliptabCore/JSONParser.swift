// SPDX-License-Identifier: MIT

/// A recursive-descent parser over the UTF-8 bytes; recursion is bounded by `maxDepth`.
struct JSONParser {
    let bytes: [UInt8]
    var position = 0
    /// The values (of any kind, nested ones included) the document may still hold: checked as
    /// each is read, so that no document builds a tree larger than its caller allows.
    var valuesLeft = Int.max

    mutating func document() throws -> JSONNode {
        skipWhitespace()
        let node = try value(depth: 0)
        skipWhitespace()
        if position < bytes.count {
            throw failure("unexpected \(found) after the end of the JSON value")
        }
        return node
    }

    private mutating func value(depth: Int) throws -> JSONNode {
        let start = position
        valuesLeft -= 1
        if valuesLeft < 0 {
            throw CliptabError(
                .limitExceeded,
                "the JSON holds more values than a table within the limits needs (at byte offset \(start)); "
                    + "it stopped there")
        }
        guard position < bytes.count else {
            throw failure("unexpected end of data; expected a value")
        }
        switch bytes[position] {
        case UInt8(ascii: "{"): return JSONNode(offset: start, value: try object(depth: depth + 1))
        case UInt8(ascii: "["): return JSONNode(offset: start, value: try array(depth: depth + 1))
        case UInt8(ascii: "\""): return JSONNode(offset: start, value: .string(try string()))
        case UInt8(ascii: "t"):
            try literal("true")
            return JSONNode(offset: start, value: .bool(true))
        case UInt8(ascii: "f"):
            try literal("false")
            return JSONNode(offset: start, value: .bool(false))
        case UInt8(ascii: "n"):
            try literal("null")
            return JSONNode(offset: start, value: .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return JSONNode(offset: start, value: .number(try number()))
        default:
            throw failure(
                "expected a value (an object, array, string, number, true, false or null), found \(found)")
        }
    }

    private mutating func object(depth: Int) throws -> JSONValue {
        if depth > JSONText.maxDepth {
            throw failure("arrays and objects are nested deeper than \(JSONText.maxDepth) levels")
        }
        position += 1
        var members: [JSONMember] = []
        // Objects here are mostly small (a row has two keys), where a linear search beats
        // hashing; a set takes over for large ones, which would otherwise cost quadratic time.
        var keys: Set<String>?
        skipWhitespace()
        if position < bytes.count && bytes[position] == UInt8(ascii: "}") {
            position += 1
            return .object(members)
        }
        while true {
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
                throw failure("expected a string key in double quotes, found \(found)")
            }
            let keyOffset = position
            let key = try string()
            if keys == nil && members.count == 16 { keys = Set(members.map(\.key)) }
            let duplicate: Bool
            if keys != nil {
                duplicate = !keys!.insert(key).inserted
            } else {
                duplicate = members.contains { $0.key == key }
            }
            guard !duplicate else {
                throw failure("duplicate key \"\(key)\" in an object", at: keyOffset)
            }
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else {
                throw failure("expected `:` after the key \"\(key)\", found \(found)")
            }
            position += 1
            skipWhitespace()
            members.append(JSONMember(key: key, node: try value(depth: depth)))
            skipWhitespace()
            if position < bytes.count && bytes[position] == UInt8(ascii: ",") {
                position += 1
                skipWhitespace()
            } else if position < bytes.count && bytes[position] == UInt8(ascii: "}") {
                position += 1
                return .object(members)
            } else {
                throw failure("expected `,` or `}` in an object, found \(found)")
            }
        }
    }

    private mutating func array(depth: Int) throws -> JSONValue {
        if depth > JSONText.maxDepth {
            throw failure("arrays and objects are nested deeper than \(JSONText.maxDepth) levels")
        }
        position += 1
        var elements: [JSONNode] = []
        skipWhitespace()
        if position < bytes.count && bytes[position] == UInt8(ascii: "]") {
            position += 1
            return .array(elements)
        }
        while true {
            elements.append(try value(depth: depth))
            skipWhitespace()
            if position < bytes.count && bytes[position] == UInt8(ascii: ",") {
                position += 1
                skipWhitespace()
            } else if position < bytes.count && bytes[position] == UInt8(ascii: "]") {
                position += 1
                return .array(elements)
            } else {
                throw failure("expected `,` or `]` in an array, found \(found)")
            }
        }
    }

    // Reads a string from its opening quote; the input is valid UTF-8 (a Swift string), so
    // bytes other than quotes, backslashes and controls are copied as they are.
    private mutating func string() throws -> String {
        let start = position
        position += 1
        var output: [UInt8] = []
        while true {
            let runStart = position
            while position < bytes.count {
                let byte = bytes[position]
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
                position += 1
            }
            // Most strings have no escape: make them straight from the input.
            if output.isEmpty && position < bytes.count && bytes[position] == UInt8(ascii: "\"") {
                position += 1
                return String(decoding: bytes[runStart..<(position - 1)], as: UTF8.self)
            }
            output += bytes[runStart..<position]
            guard position < bytes.count else {
                throw failure("unterminated string (it starts here)", at: start)
            }
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                position += 1
                return String(decoding: output, as: UTF8.self)
            }
            if byte < 0x20 {
                throw failure("\(found) must be written as an escape inside a string")
            }
            try escape(into: &output)
        }
    }

    private mutating func escape(into output: inout [UInt8]) throws {
        let start = position
        position += 1
        guard position < bytes.count else {
            throw failure("unterminated string: the data ends after a backslash")
        }
        let letter = bytes[position]
        position += 1
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): output.append(letter)
        case UInt8(ascii: "b"): output.append(0x08)
        case UInt8(ascii: "f"): output.append(0x0C)
        case UInt8(ascii: "n"): output.append(0x0A)
        case UInt8(ascii: "r"): output.append(0x0D)
        case UInt8(ascii: "t"): output.append(0x09)
        case UInt8(ascii: "u"):
            var value = try hexQuad(escapeAt: start)
            if value >= 0xDC00 && value <= 0xDFFF {
                throw failure(
                    "lone low surrogate \\u\(hex(value)) (it must follow a high surrogate \\uD800-\\uDBFF)",
                    at: start)
            }
            if value >= 0xD800 && value <= 0xDBFF {
                let lowStart = position
                guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
                    bytes[position + 1] == UInt8(ascii: "u")
                else {
                    throw failure(
                        "lone high surrogate \\u\(hex(value)) (it must be followed by a low surrogate "
                            + "\\uDC00-\\uDFFF)", at: start)
                }
                position += 2
                let low = try hexQuad(escapeAt: lowStart)
                guard low >= 0xDC00 && low <= 0xDFFF else {
                    throw failure(
                        "high surrogate \\u\(hex(value)) is followed by \\u\(hex(low)), not by a low "
                            + "surrogate \\uDC00-\\uDFFF", at: start)
                }
                value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
            }
            output += Array(String(Unicode.Scalar(value)!).utf8)
        default:
            position = start
            throw failure("bad escape; a string allows \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX")
        }
    }

    // Reads the four hex digits after `\u`.
    private mutating func hexQuad(escapeAt start: Int) throws -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard position < bytes.count, let digit = hexValue(bytes[position]) else {
                throw failure("\\u must be followed by four hexadecimal digits", at: start)
            }
            value = value << 4 | digit
            position += 1
        }
        return value
    }

    private func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    private func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    // `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
    private mutating func number() throws -> String {
        let start = position
        let grammar = "a number is -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?"
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        guard position < bytes.count, isDigit(bytes[position]) else {
            throw failure("expected a digit, found \(found); \(grammar)")
        }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
            if position < bytes.count && isDigit(bytes[position]) {
                throw failure("a number cannot have a leading zero; \(grammar)")
            }
        } else {
            skipDigits()
        }
        if position < bytes.count && bytes[position] == UInt8(ascii: ".") {
            position += 1
            guard position < bytes.count, isDigit(bytes[position]) else {
                throw failure("expected a digit after the decimal point, found \(found); \(grammar)")
            }
            skipDigits()
        }
        if position < bytes.count && (bytes[position] | 0x20) == UInt8(ascii: "e") {
            position += 1
            if position < bytes.count
                && (bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-"))
            {
                position += 1
            }
            guard position < bytes.count, isDigit(bytes[position]) else {
                throw failure("expected a digit in the exponent, found \(found); \(grammar)")
            }
            skipDigits()
        }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private mutating func skipDigits() {
        while position < bytes.count && isDigit(bytes[position]) { position += 1 }
    }

    private mutating func literal(_ word: String) throws {
        let expected = Array(word.utf8)
        guard bytes.count - position >= expected.count,
            bytes[position..<(position + expected.count)].elementsEqual(expected)
        else {
            throw failure("expected `\(word)`, found \(found)")
        }
        position += expected.count
    }

    // RFC 8259 whitespace: space, tab, line feed, carriage return; nothing else.
    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    // The character at the current position, for messages.
    private var found: String {
        guard position < bytes.count else { return "the end of the data" }
        let end = min(position + 4, bytes.count)
        let scalar = String(decoding: bytes[position..<end], as: UTF8.self).unicodeScalars.first!
        if scalar.value > 0x20 && scalar.value < 0x7F { return "`\(scalar)`" }
        let digits = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    private func failure(_ reason: String, at offset: Int? = nil) -> CliptabError {
        CliptabError(.invalidArgument, "bad JSON at byte offset \(offset ?? position): \(reason)")
    }
}
