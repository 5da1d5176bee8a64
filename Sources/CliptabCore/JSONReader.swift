// SPDX-License-Identifier: MIT
import Quoting

/// A strict RFC 8259 reader over UTF-8 bytes, one token at a time: the lexical part of
/// reading JSON (strings with their escapes, numbers, literals, whitespace), and values
/// skipped whole, validated (duplicate keys and nesting included) but not built.
///
/// Errors are `invalidArgument` with the byte offset: "bad JSON at byte offset N: …".
///
/// What reading writes (unescaped strings, the key tables) goes to a `JSONReader.Scratch`
/// passed in and kept between values, so that reading allocates nothing per value. How fast
/// it reads is the release benchmark's question (`cliptab-bench hostile`), not a debug
/// build's.
struct JSONReader {
    /// The buffers reading writes to, kept between values so that reading allocates nothing
    /// per value.
    struct Scratch {
        /// The unescaped content of the last string read that had escapes.
        var unescaped: [UInt8] = []
        /// The key table of each depth.
        var keyTables: [JSONKeyTable] = []

        /// Empty buffers.
        init() {}
    }

    /// The text, valid UTF-8 (a Swift string's own storage, not copied).
    let bytes: UnsafeBufferPointer<UInt8>
    /// The offset of the next byte to read.
    var position = 0

    /// A reader at the start of `bytes`.
    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// The byte at the current position, or nil at the end.
    var next: UInt8? { position < bytes.count ? bytes[position] : nil }

    /// Whether the byte at the current position is `byte`.
    func at(_ byte: UInt8) -> Bool { position < bytes.count && bytes[position] == byte }

    // MARK: Structure

    /// Skips RFC 8259 whitespace: space, tab, line feed, carriage return; nothing else.
    mutating func skipWhitespace() {
        while position < bytes.count {
            let byte = bytes[position]
            guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return }
            position += 1
        }
    }

    /// What the value at the current position is, by its first byte ("an object", "null"…),
    /// for messages; nil when no value starts there.
    var kindOfNext: String? {
        guard let byte = next else { return nil }
        switch byte {
        case UInt8(ascii: "{"): return "an object"
        case UInt8(ascii: "["): return "an array"
        case UInt8(ascii: "\""): return "a string"
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return "a boolean"
        case UInt8(ascii: "n"): return "null"
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return "a number"
        default: return nil
        }
    }

    /// Steps into the object or array at the current position, which is nested `depth`
    /// deep (the top level is 1), and past the whitespace after its opening bracket;
    /// returns true when it is empty (and then steps past its closing bracket too).
    mutating func open(depth: Int) throws -> Bool {
        if depth > JSONText.maxDepth {
            throw failure("arrays and objects are nested deeper than \(JSONText.maxDepth) levels")
        }
        // `{` … `}` or `[` … `]`.
        let close: UInt8 = bytes[position] == 0x7B ? 0x7D : 0x5D
        position += 1
        skipWhitespace()
        if at(close) {
            position += 1
            return true
        }
        return false
    }

    /// After a member of an object: true when another follows (past its `,`), false at the
    /// end of the object (past its `}`).
    mutating func anotherMember() throws -> Bool {
        try another(close: 0x7D)  // `}`
    }

    /// After an element of an array: true when another follows, false at the end.
    mutating func anotherElement() throws -> Bool {
        try another(close: 0x5D)  // `]`
    }

    private mutating func another(close: UInt8) throws -> Bool {
        skipWhitespace()
        if at(0x2C) {  // `,`
            position += 1
            skipWhitespace()
            return true
        }
        if at(close) {
            position += 1
            return false
        }
        let container = close == 0x7D ? "an object" : "an array"
        throw failure("expected `,` or `\(Character(Unicode.Scalar(close)))` in \(container), found \(found)")
    }

    /// Reads a member's key and the `:` after it, up to its value; returns the key's offset
    /// and its raw content, or nil when it had escapes (its text is then in `scratch`).
    mutating func key(_ scratch: inout Scratch) throws -> (offset: Int, raw: Range<Int>?) {
        guard at(0x22) else {  // `"`
            throw failure("expected a string key in double quotes, found \(found)")
        }
        let offset = position
        let raw = try string(unescaping: true, &scratch)
        skipWhitespace()
        guard at(0x3A) else {  // `:`
            throw failure(
                "expected `:` after the key \(Quotation.quoted(text(ofKeyAt: offset))), found \(found)")
        }
        position += 1
        skipWhitespace()
        return (offset, raw)
    }

    /// Whether the key just read (`raw` from `key(_:)`) is `name`.
    func key(_ raw: Range<Int>?, is name: StaticString, _ scratch: inout Scratch) -> Bool {
        name.withUTF8Buffer { expected in
            guard let raw else { return scratch.unescaped.elementsEqual(expected) }
            return bytes[raw].elementsEqual(expected)
        }
    }

    /// Notes the key just read (at `offset`, `raw` from `key(_:)`) among those of the object
    /// nested `depth` deep, `first` when it is the object's first noted key; throws when the
    /// object already has it.
    mutating func note(key offset: Int, _ raw: Range<Int>?, depth: Int, first: Bool, _ scratch: inout Scratch)
        throws
    {
        while scratch.keyTables.count <= depth { scratch.keyTables.append(JSONKeyTable()) }
        var hasher = Hasher()
        if let raw {
            hasher.combine(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[raw])))
        } else {
            scratch.unescaped.withUnsafeBytes { hasher.combine(bytes: $0) }
        }
        if first { scratch.keyTables[depth].removeAll() }
        let duplicate = scratch.keyTables[depth].insert(hash: hasher.finalize(), offset: offset) { earlier in
            // Rare (equal hash bits): both keys are read again, and compared byte for byte.
            Array(text(ofKeyAt: earlier).utf8) == Array(text(ofKeyAt: offset).utf8)
        }
        if duplicate != nil {
            throw failure("duplicate key \(Quotation.quoted(text(ofKeyAt: offset))) in an object", at: offset)
        }
    }

    // MARK: Skipping

    /// Reads and validates a whole document (one value between optional whitespace)
    /// without building it.
    mutating func skipDocument(_ scratch: inout Scratch) throws {
        skipWhitespace()
        try skipValue(depth: 0, &scratch)
        skipWhitespace()
        if next != nil { throw failure("unexpected \(found) after the end of the JSON value") }
    }

    /// Reads and validates the value at the current position, nested in a container
    /// `depth` deep, without building it.
    mutating func skipValue(depth: Int, _ scratch: inout Scratch) throws {
        guard let byte = next else { throw failure("unexpected end of data; expected a value") }
        switch byte {
        case 0x7B:  // `{`
            if try open(depth: depth + 1) { return }
            var first = true
            repeat {
                let (offset, raw) = try key(&scratch)
                try note(key: offset, raw, depth: depth + 1, first: first, &scratch)
                first = false
                try skipValue(depth: depth + 1, &scratch)
            } while try anotherMember()
        case 0x5B:  // `[`
            if try open(depth: depth + 1) { return }
            repeat { try skipValue(depth: depth + 1, &scratch) } while try anotherElement()
        case 0x22: _ = try string(unescaping: false, &scratch)  // `"`
        case 0x74: try literal("true")  // `t`
        case 0x66: try literal("false")  // `f`
        case 0x6E: try literal("null")  // `n`
        case 0x2D, 0x30...0x39: try number()  // `-`, digits
        default:
            throw failure(
                "expected a value (an object, array, string, number, true, false or null), found \(found)")
        }
    }

    // MARK: Strings

    /// Reads a string from its opening quote; returns its raw content when it has no
    /// escape, else nil with the content unescaped in `scratch` (left alone when
    /// `unescaping` is false: the escapes are only checked).
    mutating func string(unescaping: Bool, _ scratch: inout Scratch) throws -> Range<Int>? {
        let start = position
        position += 1
        var escaped = false
        while true {
            let runStart = position
            while position < bytes.count {
                let byte = bytes[position]
                if byte == 0x22 || byte == 0x5C || byte < 0x20 { break }  // `"`, `\`, controls
                position += 1
            }
            if unescaping && escaped {
                scratch.unescaped.append(
                    contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<position]))
            }
            guard position < bytes.count else {
                throw failure("unterminated string (it starts here)", at: start)
            }
            let byte = bytes[position]
            if byte == 0x22 {  // `"`
                position += 1
                return escaped ? nil : (start + 1)..<(position - 1)
            }
            if byte < 0x20 {
                throw failure("\(found) must be written as an escape inside a string")
            }
            if unescaping && !escaped {
                // The first escape: the text so far goes first.
                scratch.unescaped.removeAll(keepingCapacity: true)
                scratch.unescaped.append(
                    contentsOf: UnsafeBufferPointer(rebasing: bytes[(start + 1)..<position]))
            }
            escaped = true
            try escape(unescaping: unescaping, &scratch)
        }
    }

    /// The text of a string read by `string(unescaping: true, scratch)`, which returned `raw`.
    func text(_ raw: Range<Int>?, _ scratch: inout Scratch) -> String {
        guard let raw else { return String(decoding: scratch.unescaped, as: UTF8.self) }
        if raw.isEmpty { return "" }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[raw]), as: UTF8.self)
    }

    /// The text of the key (a valid string) at `offset`, read again, for messages and
    /// for comparing keys whose hashes agree.
    func text(ofKeyAt offset: Int) -> String {
        var again = JSONReader(bytes: bytes)
        again.position = offset
        var scratch = Scratch()
        do {
            let raw = try again.string(unescaping: true, &scratch)
            return again.text(raw, &scratch)
        } catch {
            return ""
        }
    }

    private mutating func escape(unescaping: Bool, _ scratch: inout Scratch) throws {
        let start = position
        position += 1
        guard position < bytes.count else {
            throw failure("unterminated string: the data ends after a backslash")
        }
        let letter = bytes[position]
        position += 1
        let byte: UInt8
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): byte = letter
        case UInt8(ascii: "b"): byte = 0x08
        case UInt8(ascii: "f"): byte = 0x0C
        case UInt8(ascii: "n"): byte = 0x0A
        case UInt8(ascii: "r"): byte = 0x0D
        case UInt8(ascii: "t"): byte = 0x09
        case UInt8(ascii: "u"):
            let scalar = try unicodeEscape(at: start)
            if unescaping { scratch.unescaped.append(contentsOf: String(scalar).utf8) }
            return
        default:
            position = start
            throw failure("bad escape; a string allows \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX")
        }
        if unescaping { scratch.unescaped.append(byte) }
    }

    // Reads the rest of a `\u` escape that starts at `start`, with the low surrogate that
    // must follow a high one.
    private mutating func unicodeEscape(at start: Int) throws -> Unicode.Scalar {
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
        return Unicode.Scalar(value)!
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

    // MARK: Numbers and literals

    // `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, checked and skipped (nothing
    // here needs a number's value).
    private mutating func number() throws {
        let grammar = "a number is -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?"
        if bytes[position] == 0x2D { position += 1 }  // `-`
        guard let first = next, isDigit(first) else {
            throw failure("expected a digit, found \(found); \(grammar)")
        }
        if first == 0x30 {  // `0`
            position += 1
            if let digit = next, isDigit(digit) {
                throw failure("a number cannot have a leading zero; \(grammar)")
            }
        } else {
            skipDigits()
        }
        if at(0x2E) {  // `.`
            position += 1
            guard let digit = next, isDigit(digit) else {
                throw failure("expected a digit after the decimal point, found \(found); \(grammar)")
            }
            skipDigits()
        }
        if let letter = next, letter | 0x20 == 0x65 {  // `e` or `E`
            position += 1
            if next == UInt8(ascii: "+") || next == UInt8(ascii: "-") { position += 1 }
            guard let digit = next, isDigit(digit) else {
                throw failure("expected a digit in the exponent, found \(found); \(grammar)")
            }
            skipDigits()
        }
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= 0x30 && byte <= 0x39
    }

    private mutating func skipDigits() {
        while position < bytes.count && isDigit(bytes[position]) { position += 1 }
    }

    private mutating func literal(_ word: StaticString) throws {
        let length = word.utf8CodeUnitCount
        guard bytes.count - position >= length,
            word.withUTF8Buffer({ bytes[position..<(position + length)].elementsEqual($0) })
        else {
            throw failure("expected `\(word)`, found \(found)")
        }
        position += length
    }

    // MARK: Messages

    /// The character at the current position, for messages.
    var found: String {
        guard position < bytes.count else { return "the end of the data" }
        let end = min(position + 4, bytes.count)
        let scalar = String(decoding: UnsafeBufferPointer(rebasing: bytes[position..<end]), as: UTF8.self)
            .unicodeScalars.first!
        if scalar.value > 0x20 && scalar.value < 0x7F { return "`\(scalar)`" }
        let digits = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// A syntax error at `offset` (the current position when nil).
    func failure(_ reason: String, at offset: Int? = nil) -> CliptabError {
        CliptabError(.invalidArgument, "bad JSON at byte offset \(offset ?? position): \(reason)")
    }
}
