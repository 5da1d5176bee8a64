// SPDX-License-Identifier: MIT
import Quoting

/// Reads a table in the `json` exchange format straight into an `ExchangeTable`, in one
/// pass over the bytes: rows are appended as they are read and spent from the allowance at
/// once, and values the table does not use are checked but never built, so that memory
/// grows with the table kept, not with the JSON (see `ExchangeCodec` for the rules).
///
/// Schema errors are `invalidArgument`: "bad table JSON at byte offset N: <path> …".
struct JSONTableReader {
    private var json: JSONReader
    private var scratch = JSONReader.Scratch()
    private var allowance: ExchangeAllowance
    private var sections: [ExchangeSection] = []

    /// Depths of the nesting: the top object, the sections array, a section, its rows
    /// array, a row.
    private static let topDepth = 1
    private static let sectionsDepth = 2
    private static let sectionDepth = 3
    private static let rowsDepth = 4
    private static let rowDepth = 5

    /// A place in the table, spelled out only in messages (a million rows must not make a
    /// million strings).
    private enum Place {
        case top
        case sections
        case section(Int, field: StaticString?)
        case row(Int, Int, field: StaticString?)

        var path: String {
            switch self {
            case .top: return "the top level ({\"name\": …, \"sections\": […]})"
            case .sections: return "sections"
            case .section(let section, let field):
                return "sections[\(section)]" + (field.map { ".\($0)" } ?? "")
            case .row(let section, let row, let field):
                return "sections[\(section)].rows[\(row)]" + (field.map { ".\($0)" } ?? "")
            }
        }
    }

    /// The table that the UTF-8 JSON text `bytes` describes, named `tableName`.
    static func read(
        _ bytes: UnsafeBufferPointer<UInt8>, tableName: String, allowance: ExchangeAllowance
    ) throws -> ExchangeTable {
        guard bytes.count <= JSONKeyTable.maxDataBytes else {
            throw CliptabError(
                .limitExceeded,
                "the JSON is \(bytes.count) bytes; the largest that can be read is \(JSONKeyTable.maxDataBytes)"
            )
        }
        var reader = JSONTableReader(json: JSONReader(bytes: bytes), allowance: allowance)
        do {
            reader.json.skipWhitespace()
            try reader.top()
            reader.json.skipWhitespace()
            if reader.json.next != nil {
                throw reader.json.failure("unexpected \(reader.json.found) after the end of the JSON value")
            }
        } catch let error as CliptabError where error.code == .invalidArgument {
            // A syntax error anywhere comes before a schema error, as when the whole text
            // was parsed first: the rest is checked (only on this path of failure).
            var check = JSONReader(bytes: bytes)
            try check.skipDocument(&reader.scratch)
            throw error
        }
        return ExchangeTable(name: tableName, sections: reader.sections)
    }

    // `{"name": …, "sections": […]}`.
    private mutating func top() throws {
        let start = try expect(0x7B, at: .top, depth: 0)  // `{`
        var sawSections = false
        var sawName = false
        if try !json.open(depth: Self.topDepth) {
            var firstUnknown = true
            repeat {
                let (offset, key) = try json.key(&scratch)
                if json.key(key, is: "sections", &scratch) {
                    try once(&sawSections, offset)
                    try sectionList()
                } else if json.key(key, is: "name", &scratch) {
                    // The caller names the table; the name must still be a string.
                    try once(&sawName, offset)
                    _ = try string(at: .top, named: "name", depth: Self.topDepth)
                } else {
                    try json.note(key: offset, key, depth: Self.topDepth, first: firstUnknown, &scratch)
                    firstUnknown = false
                    try json.skipValue(depth: Self.topDepth, &scratch)
                }
            } while try json.anotherMember()
        }
        if !sawSections { throw failure(at: start, "sections is missing; it must be an array") }
    }

    // `[{section}, …]`.
    private mutating func sectionList() throws {
        _ = try expect(0x5B, at: .sections, depth: Self.topDepth)  // `[`
        if try json.open(depth: Self.sectionsDepth) { return }
        repeat {
            try allowance.spendSection()
            sections.append(ExchangeSection())
            try section()
        } while try json.anotherElement()
    }

    // `{"header": …, "footer": …, "rows": […]}`, in any order, into the last section.
    private mutating func section() throws {
        let index = sections.count - 1
        let start = try expect(0x7B, at: .section(index, field: nil), depth: Self.sectionsDepth)  // `{`
        var (sawHeader, sawFooter, sawRows) = (false, false, false)
        if try !json.open(depth: Self.sectionDepth) {
            var firstUnknown = true
            repeat {
                let (offset, key) = try json.key(&scratch)
                if json.key(key, is: "rows", &scratch) {
                    try once(&sawRows, offset)
                    try rowList()
                } else if json.key(key, is: "header", &scratch) {
                    try once(&sawHeader, offset)
                    let header = try title(index, "header")
                    sections[index].header = header
                } else if json.key(key, is: "footer", &scratch) {
                    try once(&sawFooter, offset)
                    let footer = try title(index, "footer")
                    sections[index].footer = footer
                } else {
                    try json.note(key: offset, key, depth: Self.sectionDepth, first: firstUnknown, &scratch)
                    firstUnknown = false
                    try json.skipValue(depth: Self.sectionDepth, &scratch)
                }
            } while try json.anotherMember()
        }
        if !sawRows {
            throw failure(
                at: start, "\(Place.section(index, field: "rows").path) is missing; it must be an array")
        }
    }

    // A header or footer of section `index`: a string within the cell limit.
    private mutating func title(_ index: Int, _ field: StaticString) throws -> String {
        let title = try string(at: .section(index, field: field), depth: Self.sectionDepth)
        try allowance.checkCell(bytes: title.utf8.count, what: "\(field)")
        return title
    }

    // `[{row}, …]`, appended to the last section.
    private mutating func rowList() throws {
        let index = sections.count - 1
        _ = try expect(0x5B, at: .section(index, field: "rows"), depth: Self.sectionDepth)  // `[`
        if try json.open(depth: Self.rowsDepth) { return }
        repeat {
            let row = try self.row(index, sections[index].rows.count)
            sections[index].rows.append(row)
        } while try json.anotherElement()
    }

    // `{"id": …, "name": …, "text": …}`, in any order; `id` may be anything.
    private mutating func row(_ section: Int, _ index: Int) throws -> ExchangeRow {
        let start = try expect(0x7B, at: .row(section, index, field: nil), depth: Self.rowsDepth)  // `{`
        var text: String?
        var name: String?
        var sawID = false
        if try !json.open(depth: Self.rowDepth) {
            var firstUnknown = true
            repeat {
                let (offset, key) = try json.key(&scratch)
                if json.key(key, is: "text", &scratch) {
                    if text != nil { throw duplicate(offset) }
                    text = try string(at: .row(section, index, field: "text"), depth: Self.rowDepth)
                } else if json.key(key, is: "id", &scratch) {
                    try once(&sawID, offset)
                    try json.skipValue(depth: Self.rowDepth, &scratch)
                } else if json.key(key, is: "name", &scratch) {
                    if name != nil { throw duplicate(offset) }
                    name = try string(at: .row(section, index, field: "name"), depth: Self.rowDepth)
                } else {
                    try json.note(key: offset, key, depth: Self.rowDepth, first: firstUnknown, &scratch)
                    firstUnknown = false
                    try json.skipValue(depth: Self.rowDepth, &scratch)
                }
            } while try json.anotherMember()
        }
        guard let text else {
            throw failure(
                at: start, "\(Place.row(section, index, field: "text").path) is missing; it must be a string")
        }
        try allowance.spendRow(bytes: text.utf8.count)
        return ExchangeRow(text: text, name: name ?? "")
    }

    // MARK: Pieces

    // Checks that the value at the current position starts with `opening` (`{`, `[` or `"`)
    // and returns its offset; otherwise the value is read (a syntax error in it comes
    // first) and `place` named as what must be of that kind.
    private mutating func expect(
        _ opening: UInt8, at place: Place, named field: StaticString? = nil, depth: Int
    )
        throws -> Int
    {
        let start = json.position
        if json.at(opening) { return start }
        let found = json.kindOfNext
        try json.skipValue(depth: depth, &scratch)
        let kind = opening == 0x7B ? "an object" : opening == 0x5B ? "an array" : "a string"
        let path = field.map { "\($0)" } ?? place.path
        throw failure(at: start, "\(path) must be \(kind), found \(found ?? "nothing")")
    }

    // A string value at `place` (or the top-level member `field`), unescaped, in a
    // container `depth` deep.
    private mutating func string(at place: Place, named field: StaticString? = nil, depth: Int) throws
        -> String
    {
        _ = try expect(0x22, at: place, named: field, depth: depth)  // `"`
        let raw = try json.string(unescaping: true, &scratch)
        return json.text(raw, &scratch)
    }

    // Marks a known key of an object as seen; throws when it was already.
    private func once(_ seen: inout Bool, _ offset: Int) throws {
        if seen { throw duplicate(offset) }
        seen = true
    }

    private func duplicate(_ offset: Int) -> CliptabError {
        json.failure("duplicate key \(Quotation.quoted(json.text(ofKeyAt: offset))) in an object", at: offset)
    }

    private func failure(at offset: Int, _ reason: String) -> CliptabError {
        CliptabError(.invalidArgument, "bad table JSON at byte offset \(offset): \(reason)")
    }
}
