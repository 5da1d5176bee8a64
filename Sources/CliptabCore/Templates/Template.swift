// SPDX-License-Identifier: MIT
import CliptabContract
import Quoting

/// A row's text read as a template: literal text and placeholders, checked once.
///
/// The grammar (`docs/dbus-api.md`, "Placeholders"): `{{` and `}}` are braces; every other
/// brace opens or closes a placeholder, which cannot hold a brace itself. A malformed
/// template is refused with the UTF-8 byte offset of what is wrong.
public struct Template: Equatable, Sendable {
    /// The pieces, in order.
    public let parts: [TemplatePart]

    /// The most offsets one clock placeholder may hold.
    public static let maxOffsets = 16

    /// The placeholder names, as written.
    static let names = ["clipboard", "date", "time", "datetime", "uuid", "snippet", "input", "cursor"]

    /// Reads `text`; throws where it is malformed, or when it holds more than
    /// `limits.maxPlaceholders` placeholders or more than one `{cursor}`.
    public init(parsing text: String, limits: TemplateLimits = .defaults) throws(TemplateSyntaxError) {
        let bytes = Array(text.utf8)
        var parts: [TemplatePart] = []
        var literal: [UInt8] = []
        var placeholders = 0
        var sawCursor = false
        var i = 0
        func flush() {
            if !literal.isEmpty { parts.append(.literal(String(decoding: literal, as: UTF8.self))) }
            literal.removeAll(keepingCapacity: true)
        }
        while i < bytes.count {
            let byte = bytes[i]
            if byte == UInt8(ascii: "}") {
                guard i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "}") else {
                    throw TemplateSyntaxError(offset: i, "a lone \"}\" (write }} for a brace)")
                }
                literal.append(byte)
                i += 2
                continue
            }
            guard byte == UInt8(ascii: "{") else {
                literal.append(byte)
                i += 1
                continue
            }
            if i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "{") {
                literal.append(byte)
                i += 2
                continue
            }
            var end = i + 1
            while end < bytes.count, bytes[end] != UInt8(ascii: "}") {
                if bytes[end] == UInt8(ascii: "{") {
                    throw TemplateSyntaxError(
                        offset: end, "a placeholder cannot hold \"{\" (the one opened at byte \(i))")
                }
                end += 1
            }
            guard end < bytes.count else {
                throw TemplateSyntaxError(offset: i, "the placeholder opened here is never closed with \"}\"")
            }
            let part = try Self.placeholder(bytes[(i + 1)..<end], at: i + 1)
            if part == .cursor {
                if sawCursor {
                    throw TemplateSyntaxError(offset: i, "a second {cursor}: a template has one at most")
                }
                sawCursor = true
            }
            placeholders += 1
            if placeholders > limits.maxPlaceholders {
                throw TemplateSyntaxError(
                    offset: i, "more than \(limits.maxPlaceholders) placeholders (the limit of one template)")
            }
            flush()
            parts.append(part)
            i = end + 1
        }
        flush()
        self.parts = parts
    }

    /// Whether `text` holds no brace at all, so that it expands to itself (checked without
    /// parsing: most rows of a templates table are plain text).
    public static func isPlain(_ text: String) -> Bool {
        !text.utf8.contains { $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "}") }
    }

    /// The text of one placeholder between its braces, starting at byte `at` of the template.
    private static func placeholder(_ body: ArraySlice<UInt8>, at: Int) throws(TemplateSyntaxError)
        -> TemplatePart
    {
        let name = body.prefix { $0 != UInt8(ascii: ":") && $0 != UInt8(ascii: " ") }
        let word = String(decoding: name, as: UTF8.self)
        let rest = body[name.endIndex...]
        let restAt = at + name.count
        switch word {
        case "clipboard", "uuid", "cursor":
            guard rest.isEmpty else {
                throw TemplateSyntaxError(offset: restAt, "{\(word)} takes no argument")
            }
            return word == "clipboard" ? .clipboard : word == "uuid" ? .uuid : .cursor
        case "date", "time", "datetime":
            return .clock(try clock(TemplateClock.Kind(rawValue: word)!, rest, at: restAt))
        case "snippet":
            guard rest.first == UInt8(ascii: ":"), rest.count > 1 else {
                throw TemplateSyntaxError(
                    offset: restAt, "{snippet:NAME} or {snippet:TABLE/NAME} names a row")
            }
            let reference = String(decoding: rest.dropFirst(), as: UTF8.self)
            let pieces = reference.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
            let table = pieces.count == 2 ? String(pieces[0]) : nil
            let rowName = String(pieces[pieces.count - 1])
            if let table {
                do { try TableName.validate(table) } catch {
                    throw TemplateSyntaxError(
                        offset: restAt + 1, "\(Quotation.quoted(table)) is not a table name")
                }
            }
            guard RowName.isValid(rowName) else {
                throw TemplateSyntaxError(
                    offset: restAt + 1 + (table.map { $0.utf8.count + 1 } ?? 0),
                    "\(Quotation.quoted(rowName)) is not a row name (letters, digits, \"_\", \".\", \"-\")")
            }
            return .snippet(table: table, name: rowName)
        case "input":
            guard rest.first == UInt8(ascii: ":") else {
                throw TemplateSyntaxError(
                    offset: restAt, "{input:Label} or {input:Label=default} names a label")
            }
            let argument = rest.dropFirst()
            let label = argument.prefix { $0 != UInt8(ascii: "=") }
            guard !label.isEmpty, label.count <= RowName.maxBytes,
                !label.contains(where: { $0 < 0x20 || $0 == 0x7F })
            else {
                throw TemplateSyntaxError(
                    offset: restAt + 1,
                    "an input label is 1–\(RowName.maxBytes) bytes without control characters")
            }
            let defaultValue =
                label.count < argument.count
                ? String(decoding: argument[(label.endIndex + 1)...], as: UTF8.self) : nil
            return .input(label: String(decoding: label, as: UTF8.self), defaultValue: defaultValue)
        default:
            throw TemplateSyntaxError(
                offset: at,
                "unknown placeholder \(Quotation.quoted(word)) (known: \(names.joined(separator: ", ")); {{ for a brace)"
            )
        }
    }

    /// The offsets and format after `date`, `time` or `datetime`.
    private static func clock(_ kind: TemplateClock.Kind, _ rest: ArraySlice<UInt8>, at: Int)
        throws(TemplateSyntaxError) -> TemplateClock
    {
        var offsets: [TemplateOffset] = []
        var i = rest.startIndex
        var format = kind.defaultFormat
        var formatAt = at
        while i < rest.endIndex {
            let here = at + (i - rest.startIndex)
            let byte = rest[i]
            if byte == UInt8(ascii: " ") {
                i += 1
                continue
            }
            if byte == UInt8(ascii: ":") {
                format = String(decoding: rest[(i + 1)...], as: UTF8.self)
                formatAt = here + 1
                break
            }
            guard byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") else {
                throw TemplateSyntaxError(
                    offset: here,
                    "expected an offset such as +1d or -30m, or \":\" and a format, after {\(kind.rawValue)")
            }
            var j = i + 1
            var amount: Int64 = 0
            while j < rest.endIndex, rest[j] >= UInt8(ascii: "0"), rest[j] <= UInt8(ascii: "9"), j - i <= 6 {
                amount = amount * 10 + Int64(rest[j] - UInt8(ascii: "0"))
                j += 1
            }
            let isDigit = j < rest.endIndex && rest[j] >= UInt8(ascii: "0") && rest[j] <= UInt8(ascii: "9")
            guard j > i + 1, j < rest.endIndex, !isDigit else {
                throw TemplateSyntaxError(
                    offset: here, "an offset is a sign, 1–6 digits and a unit (s m h d w M y)")
            }
            guard let unit = TemplateOffset.Unit(rawValue: Character(Unicode.Scalar(rest[j]))) else {
                throw TemplateSyntaxError(
                    offset: at + (j - rest.startIndex), "unknown offset unit (s m h d w M y: seconds … years)"
                )
            }
            offsets.append(TemplateOffset(amount: byte == UInt8(ascii: "-") ? -amount : amount, unit: unit))
            if offsets.count > maxOffsets {
                throw TemplateSyntaxError(offset: here, "more than \(maxOffsets) offsets in one placeholder")
            }
            i = j + 1
            if i < rest.endIndex, rest[i] != UInt8(ascii: " "), rest[i] != UInt8(ascii: ":") {
                throw TemplateSyntaxError(
                    offset: at + (i - rest.startIndex), "expected a blank or \":\" after an offset")
            }
        }
        do {
            return TemplateClock(kind: kind, offsets: offsets, format: try TimeFormat(parsing: format))
        } catch {
            throw TemplateSyntaxError(offset: formatAt + error.offset, error.message)
        }
    }
}
