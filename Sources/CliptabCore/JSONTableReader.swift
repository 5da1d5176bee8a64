// SPDX-License-Identifier: MIT

/// Reads a table in the `json` exchange format straight into an `ExchangeTable`, in one
/// pass over the bytes: rows are appended as they are read and spent from the allowance at
/// once, and values the table does not use are checked but never built, so that memory
/// grows with the table kept, not with the JSON (see `ExchangeCodec` for the rules).
///
/// Schema errors are `invalidArgument`: "bad table JSON at byte offset N: <path> …".
struct JSONTableReader {
    private var json: JSONReader
    private var allowance: ExchangeAllowance
    private var sections: [ExchangeSection] = []

    // Known keys, as bytes.
    private static let nameKey = Array("name".utf8)
    private static let sectionsKey = Array("sections".utf8)
    private static let headerKey = Array("header".utf8)
    private static let footerKey = Array("footer".utf8)
    private static let rowsKey = Array("rows".utf8)
    private static let textKey = Array("text".utf8)
    private static let idKey = Array("id".utf8)

    /// Depths of the nesting: the top object, the sections array, a section, its rows
    /// array, a row.
    private static let topDepth = 1
    private static let sectionsDepth = 2
    private static let sectionDepth = 3
    private static let rowsDepth = 4
    private static let rowDepth = 5

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
            try check.skipDocument()
            throw error
        }
        return ExchangeTable(name: tableName, sections: reader.sections)
    }

    // `{"name": …, "sections": […]}`.
    private mutating func top() throws {
        let start = try expect("{", "an object", "the top level ({\"name\": …, \"sections\": […]})", depth: 0)
        var sawSections = false
        var sawName = false
        if try !json.open(depth: Self.topDepth) {
            var firstUnknown = true
            repeat {
                let (offset, key) = try json.key()
                if json.key(key, is: Self.sectionsKey) {
                    try once(&sawSections, offset)
                    try sectionList()
                } else if json.key(key, is: Self.nameKey) {
                    // The caller names the table; the name must still be a string.
                    try once(&sawName, offset)
                    _ = try string("name", depth: Self.topDepth)
                } else {
                    try json.note(key: offset, key, depth: Self.topDepth, first: firstUnknown)
                    firstUnknown = false
                    try json.skipValue(depth: Self.topDepth)
                }
            } while try json.anotherMember()
        }
        if !sawSections { throw failure(at: start, "sections is missing; it must be an array") }
    }

    // `[{section}, …]`.
    private mutating func sectionList() throws {
        _ = try expect("[", "an array", "sections", depth: Self.topDepth)
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
        let path = "sections[\(index)]"
        let start = try expect("{", "an object", path, depth: Self.sectionsDepth)
        var (sawHeader, sawFooter, sawRows) = (false, false, false)
        if try !json.open(depth: Self.sectionDepth) {
            var firstUnknown = true
            repeat {
                let (offset, key) = try json.key()
                if json.key(key, is: Self.rowsKey) {
                    try once(&sawRows, offset)
                    try rowList(path)
                } else if json.key(key, is: Self.headerKey) {
                    try once(&sawHeader, offset)
                    let header = try title(path + ".header", what: "header")
                    sections[index].header = header
                } else if json.key(key, is: Self.footerKey) {
                    try once(&sawFooter, offset)
                    let footer = try title(path + ".footer", what: "footer")
                    sections[index].footer = footer
                } else {
                    try json.note(key: offset, key, depth: Self.sectionDepth, first: firstUnknown)
                    firstUnknown = false
                    try json.skipValue(depth: Self.sectionDepth)
                }
            } while try json.anotherMember()
        }
        if !sawRows { throw failure(at: start, "\(path).rows is missing; it must be an array") }
    }

    // A header or footer: a string within the cell limit.
    private mutating func title(_ path: String, what: String) throws -> String {
        let title = try string(path, depth: Self.sectionDepth)
        try allowance.checkCell(bytes: title.utf8.count, what: what)
        return title
    }

    // `[{row}, …]`, appended to the last section.
    private mutating func rowList(_ sectionPath: String) throws {
        _ = try expect("[", "an array", sectionPath + ".rows", depth: Self.sectionDepth)
        if try json.open(depth: Self.rowsDepth) { return }
        let index = sections.count - 1
        repeat {
            let row = try self.row(sectionPath, sections[index].rows.count)
            sections[index].rows.append(row)
        } while try json.anotherElement()
    }

    // `{"id": …, "name": …, "text": …}`, in any order; `id` may be anything.
    private mutating func row(_ sectionPath: String, _ rowIndex: Int) throws -> ExchangeRow {
        // Paths are made only for messages: a million rows must not make a million strings.
        func path() -> String { "\(sectionPath).rows[\(rowIndex)]" }
        guard json.next == UInt8(ascii: "{") else {
            let start = json.position
            let kind = json.kindOfNext
            try json.skipValue(depth: Self.rowsDepth)
            throw failure(at: start, "\(path()) must be an object, found \(kind ?? "nothing")")
        }
        let start = json.position
        var text: String?
        var name: String?
        var sawID = false
        if try !json.open(depth: Self.rowDepth) {
            var firstUnknown = true
            repeat {
                let (offset, key) = try json.key()
                if json.key(key, is: Self.textKey) {
                    guard text == nil else { throw duplicate(offset) }
                    text = try string(path() + ".text", depth: Self.rowDepth)
                } else if json.key(key, is: Self.idKey) {
                    try once(&sawID, offset)
                    try json.skipValue(depth: Self.rowDepth)
                } else if json.key(key, is: Self.nameKey) {
                    guard name == nil else { throw duplicate(offset) }
                    name = try string(path() + ".name", depth: Self.rowDepth)
                } else {
                    try json.note(key: offset, key, depth: Self.rowDepth, first: firstUnknown)
                    firstUnknown = false
                    try json.skipValue(depth: Self.rowDepth)
                }
            } while try json.anotherMember()
        }
        guard let text else { throw failure(at: start, "\(path()).text is missing; it must be a string") }
        try allowance.spendRow(bytes: text.utf8.count)
        return ExchangeRow(text: text, name: name ?? "")
    }

    // MARK: Pieces

    // Checks that the value at the current position is of the kind that starts with
    // `opening` (described as `kind`) and returns its offset; otherwise the value is read
    // (a syntax error in it comes first) and `path` named as what must be `kind`.
    private mutating func expect(
        _ opening: Unicode.Scalar, _ kind: String, _ path: @autoclosure () -> String, depth: Int
    ) throws -> Int {
        let start = json.position
        if json.next == UInt8(ascii: opening) { return start }
        let found = json.kindOfNext
        try json.skipValue(depth: depth)
        throw failure(at: start, "\(path()) must be \(kind), found \(found ?? "nothing")")
    }

    // A string value, unescaped, in a container `depth` deep.
    private mutating func string(_ path: @autoclosure () -> String, depth: Int) throws -> String {
        _ = try expect("\"", "a string", path(), depth: depth)
        // Read first: `json.text(…)` would take `json` as it was before the read.
        let raw = try json.string(unescaping: true)
        return json.text(raw)
    }

    // Marks a known key of an object as seen; throws when it was already.
    private func once(_ seen: inout Bool, _ offset: Int) throws {
        if seen { throw duplicate(offset) }
        seen = true
    }

    private func duplicate(_ offset: Int) -> CliptabError {
        json.failure("duplicate key \"\(json.text(ofKeyAt: offset))\" in an object", at: offset)
    }

    private func failure(at offset: Int, _ reason: String) -> CliptabError {
        CliptabError(.invalidArgument, "bad table JSON at byte offset \(offset): \(reason)")
    }
}
