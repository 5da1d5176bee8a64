// SPDX-License-Identifier: MIT
import Quoting

/// Encoding and decoding of tables in the exchange formats.
///
/// For every table a format can express, `decode(encode(t))` gives `t` back, except the row
/// ids, which decoding always sets to 0. Decisions where the contract is silent:
///
/// - Every line of `lines` and `tsv` output ends with `\n`, the last one too; on input the
///   last line may lack it, and a line may end with `\r\n` instead (its `\r` is dropped).
/// - `lines`: a section line is `##`, or `## ` and the header; reading drops one space after
///   `##` if there is one. Rows before the first `##` line form a first section without
///   header; without such rows there is no such section, so empty data is a table with no
///   sections, and a first section without header and without rows is written `##`. Export
///   refuses (with `invalidArgument` naming the row as `section:row`) a row that contains
///   `\n`, starts with `##` or ends with `\r`, and a header that contains `\n` or ends with
///   `\r`; footers are not written, and read back empty.
/// - `tsv`: escapes are `\\`, `\t`, `\n` and `\r` (so that no line holds a raw carriage
///   return); any other backslash sequence is an error. Section and row numbers are plain
///   decimal (no sign, no leading zero). Reading checks the header line, five fields per
///   line, sections numbered 0, 1, … in order, rows numbered 0, 1, … in each section, the
///   same header and footer on every line of a section, and that a line with an empty row
///   number (a section without rows) has an empty text and is its section's only line.
/// - `json`: written with two-space indentation and one row per line, keys in the order
///   name, sections, header, footer, rows, id, text. Reading is strict RFC 8259 (nesting at
///   most 64 deep, duplicate keys refused); `name` is ignored (the table is named by the
///   caller), as are `id` whatever its value, and keys it does not know, so that later
///   versions can add some; `header` and `footer` default to empty; `sections`, `rows` and
///   `text` are required. Keys may come in any order. Reading is one pass that appends each
///   row as it is read and spends it from the allowance at once; values it ignores are
///   checked (syntax, nesting, duplicate keys) but not built.
public enum ExchangeCodec {
    /// `table` in `format`; throws `invalidArgument` naming the first row or header the
    /// format cannot express (only `lines` has such).
    public static func encode(_ table: ExchangeTable, as format: ExchangeFormat) throws -> String {
        let bytes: [UInt8]
        switch format {
        case .json: bytes = encodeJSON(table)
        case .tsv: bytes = encodeTSV(table)
        case .lines: bytes = try encodeLines(table)
        case .yaml: throw CliptabError(.invalidArgument, "the yaml format is written by the table-file codec")
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The table that `data` in `format` describes, named `tableName`; `invalidArgument`
    /// saying where the data is wrong (line number, or byte offset for JSON), `limitExceeded`
    /// at the first row, section or cell over `allowance`.
    public static func decode(
        _ data: String, as format: ExchangeFormat, tableName: String,
        allowance: ExchangeAllowance = .unlimited
    ) throws -> ExchangeTable {
        var allowance = allowance
        switch format {
        case .json: return try decodeJSON(data, tableName: tableName, allowance: &allowance)
        case .tsv: return try decodeTSV(data, tableName: tableName, allowance: &allowance)
        case .lines: return try decodeLines(data, tableName: tableName, allowance: &allowance)
        case .yaml: throw CliptabError(.invalidArgument, "the yaml format is read by the table-file codec")
        }
    }
}

// MARK: - Lines of text

private let newline = UInt8(ascii: "\n")
private let carriageReturn = UInt8(ascii: "\r")
private let tab = UInt8(ascii: "\t")
private let backslash = UInt8(ascii: "\\")
private let hash = UInt8(ascii: "#")

// Calls `body` with the 1-based number and the byte range of each line of `bytes`, without
// its terminator (`\n` or `\r\n`); a last line without terminator counts, an empty rest
// after the last `\n` does not.
private func forEachLine(_ bytes: [UInt8], _ body: (Int, Range<Int>) throws -> Void) rethrows {
    var start = 0
    var number = 1
    while start < bytes.count {
        var end = start
        while end < bytes.count && bytes[end] != newline { end += 1 }
        var contentEnd = end
        if end < bytes.count && contentEnd > start && bytes[contentEnd - 1] == carriageReturn {
            contentEnd -= 1
        }
        try body(number, start..<contentEnd)
        number += 1
        start = end + 1
    }
}

/// The length of `range` (`Range.count` is the generic collection one: slow unoptimized).
private func length(_ range: Range<Int>) -> Int { range.upperBound - range.lowerBound }

/// Where a tsv section's header and footer fields are in the data, and their line.
private struct TSVSectionFields {
    var header = 0..<0
    var footer = 0..<0
    var line = 0
}

private func text(_ bytes: [UInt8], _ range: Range<Int>) -> String {
    String(decoding: bytes[range], as: UTF8.self)
}

// A short quotation of a line for a message.
private func excerpt(_ bytes: [UInt8], _ range: Range<Int>) -> String {
    Quotation.quoted(text(bytes, range), maxScalars: 60)
}

// MARK: - lines

extension ExchangeCodec {
    private static func encodeLines(_ table: ExchangeTable) throws -> [UInt8] {
        var output: [UInt8] = []
        for (sectionIndex, section) in table.sections.enumerated() {
            let header = Array(section.header.utf8)
            if header.contains(newline) || header.last == carriageReturn {
                throw CliptabError(
                    .invalidArgument,
                    "the header of section \(sectionIndex) "
                        + (header.contains(newline) ? "contains a line break" : "ends with a carriage return")
                        + ", which the lines format cannot express; export as tsv or json"
                )
            }
            // The implicit first section has no header and at least one row; any other
            // section needs its `##` line.
            if sectionIndex > 0 || !header.isEmpty || section.rows.isEmpty {
                output += [hash, hash]
                if !header.isEmpty {
                    output.append(UInt8(ascii: " "))
                    output += header
                }
                output.append(newline)
            }
            for (rowIndex, row) in section.rows.enumerated() {
                let line = Array(row.text.utf8)
                let problem: String?
                if line.contains(newline) {
                    problem = "contains a line break"
                } else if line.starts(with: [hash, hash]) {
                    problem = "starts with \"##\", which would read as a section line"
                } else if line.last == carriageReturn {
                    problem = "ends with a carriage return, which would read as part of a line break"
                } else {
                    problem = nil
                }
                if let problem {
                    throw CliptabError(
                        .invalidArgument,
                        "row \(sectionIndex):\(rowIndex) (section \(sectionIndex), row \(rowIndex)) "
                            + "\(problem); "
                            + "the lines format cannot express it: export as tsv or json"
                    )
                }
                output += line
                output.append(newline)
            }
        }
        return output
    }

    private static func decodeLines(_ data: String, tableName: String, allowance: inout ExchangeAllowance)
        throws
        -> ExchangeTable
    {
        let bytes = Array(data.utf8)
        var sections: [ExchangeSection] = []
        try forEachLine(bytes) { _, line in
            if line.count >= 2 && bytes[line.lowerBound] == hash && bytes[line.lowerBound + 1] == hash {
                var start = line.lowerBound + 2
                if start < line.upperBound && bytes[start] == UInt8(ascii: " ") { start += 1 }
                try allowance.spendSection()
                try allowance.checkCell(bytes: line.upperBound - start, what: "header")
                sections.append(ExchangeSection(header: text(bytes, start..<line.upperBound)))
            } else {
                if sections.isEmpty {
                    try allowance.spendSection()
                    sections.append(ExchangeSection())
                }
                try allowance.spendRow(bytes: line.count)
                sections[sections.count - 1].rows.append(ExchangeRow(text: text(bytes, line)))
            }
        }
        return ExchangeTable(name: tableName, sections: sections)
    }
}

// MARK: - tsv

private let tsvHeaderLine = "section\theader\tfooter\trow\ttext"
/// The header line when rows carry names: a sixth column.
private let tsvNamedHeaderLine = tsvHeaderLine + "\tname"

extension ExchangeCodec {
    private static func encodeTSV(_ table: ExchangeTable) -> [UInt8] {
        // The name column only when some row has a name, so unnamed tables export as before.
        let named = table.sections.contains { $0.rows.contains { !$0.name.isEmpty } }
        var output = Array((named ? tsvNamedHeaderLine : tsvHeaderLine).utf8)
        output.append(newline)
        for (sectionIndex, section) in table.sections.enumerated() {
            var prefix = Array(String(sectionIndex).utf8)
            prefix.append(tab)
            appendEscaped(section.header, to: &prefix)
            prefix.append(tab)
            appendEscaped(section.footer, to: &prefix)
            prefix.append(tab)
            if section.rows.isEmpty {
                output += prefix
                output += named ? [tab, tab, newline] : [tab, newline]
            }
            for (rowIndex, row) in section.rows.enumerated() {
                output += prefix
                output += String(rowIndex).utf8
                output.append(tab)
                appendEscaped(row.text, to: &output)
                if named {
                    output.append(tab)
                    appendEscaped(row.name, to: &output)
                }
                output.append(newline)
            }
        }
        return output
    }

    private static func appendEscaped(_ string: String, to output: inout [UInt8]) {
        for byte in string.utf8 {
            switch byte {
            case backslash: output += [backslash, backslash]
            case tab: output += [backslash, UInt8(ascii: "t")]
            case newline: output += [backslash, UInt8(ascii: "n")]
            case carriageReturn: output += [backslash, UInt8(ascii: "r")]
            default: output.append(byte)
            }
        }
    }

    private static func decodeTSV(_ data: String, tableName: String, allowance: inout ExchangeAllowance)
        throws
        -> ExchangeTable
    {
        let bytes = Array(data.utf8)
        var sections: [ExchangeSection] = []
        // Per section: the raw header and footer fields and the line that gave them, and
        // whether the section was given as empty (a line with no row number).
        var sectionFields = TSVSectionFields()
        var sectionIsEmpty = false
        var sawHeaderLine = false
        var columns = 5
        // The fields of the current line: at most one more than the columns (six).
        var fields = [Range<Int>](repeating: 0..<0, count: 7)
        var fieldCount = 0
        try forEachLine(bytes) { number, line in
            func failure(_ reason: String) -> CliptabError {
                CliptabError(.invalidArgument, "tsv line \(number): \(reason)")
            }
            if number == 1 {
                if bytes[line].elementsEqual(tsvNamedHeaderLine.utf8) { columns = 6 }
                guard columns == 6 || bytes[line].elementsEqual(tsvHeaderLine.utf8) else {
                    throw failure(
                        "expected the header line \"section\\theader\\tfooter\\trow\\ttext\" "
                            + "(tab-separated), found \(excerpt(bytes, line))")
                }
                sawHeaderLine = true
                return
            }
            // At most one piece more than the columns: a line of millions of tabs must not
            // become millions of slices. Split by hand into a reused buffer: this runs once per
            // row of a 16 MiB import, where the generic split made an array per line.
            fieldCount = 0
            var fieldStart = line.lowerBound
            var index = line.lowerBound
            while index < line.upperBound && fieldCount < columns {
                if bytes[index] == tab {
                    fields[fieldCount] = fieldStart..<index
                    fieldCount += 1
                    fieldStart = index + 1
                }
                index += 1
            }
            fields[fieldCount] = fieldStart..<line.upperBound
            fieldCount += 1
            guard fieldCount == columns else {
                throw failure(
                    "expected \(columns) tab-separated fields (section, header, footer, row, text"
                        + (columns == 6 ? ", name" : "") + "), "
                        + "found \(fieldCount > columns ? "more" : "\(fieldCount)"); write a tab inside a field as \\t"
                )
            }
            guard let sectionIndex = plainNumber(bytes, fields[0]) else {
                throw failure("the section number \(excerpt(bytes, fields[0])) is not a plain number")
            }
            if sectionIndex == sections.count {
                try allowance.spendSection()
                try allowance.checkCell(bytes: length(fields[1]), what: "header")
                try allowance.checkCell(bytes: length(fields[2]), what: "footer")
                sections.append(
                    ExchangeSection(
                        header: try unescape(bytes, fields[1], field: "header", failure: failure),
                        footer: try unescape(bytes, fields[2], field: "footer", failure: failure)))
                sectionFields = TSVSectionFields(header: fields[1], footer: fields[2], line: number)
                sectionIsEmpty = false
            } else if sectionIndex + 1 == sections.count {
                if sectionIsEmpty {
                    throw failure(
                        "section \(sectionIndex) was given as a section without rows on line "
                            + "\(sectionFields.line) (empty row number), but has more lines")
                }
                if !sameBytes(bytes, fields[1], sectionFields.header)
                    || !sameBytes(bytes, fields[2], sectionFields.footer)
                {
                    throw failure(
                        "the header or footer of section \(sectionIndex) differs from the one on line "
                            + "\(sectionFields.line); every line of a section repeats them")
                }
            } else {
                let expected =
                    sections.isEmpty ? "0" : "\(sections.count - 1) or \(sections.count)"
                throw failure("section number \(sectionIndex) is out of order; expected \(expected)")
            }
            if fields[3].isEmpty {
                guard sections[sectionIndex].rows.isEmpty, sectionFields.line == number else {
                    throw failure(
                        "an empty row number stands for a section without rows, but section \(sectionIndex) "
                            + "has rows")
                }
                guard fields[4].isEmpty, columns == 5 || fields[5].isEmpty else {
                    throw failure(
                        "an empty row number stands for a section without rows, so the text (and name) must be empty too"
                    )
                }
                sectionIsEmpty = true
                return
            }
            let expectedRow = sections[sectionIndex].rows.count
            guard let rowIndex = plainNumber(bytes, fields[3]), rowIndex == expectedRow else {
                throw failure(
                    "the row number \(excerpt(bytes, fields[3])) is wrong; expected \(expectedRow) "
                        + "(rows are numbered 0, 1, … in each section)")
            }
            // Escapes only shorten a field, so its raw length bounds the cell.
            try allowance.spendRow(bytes: length(fields[4]))
            sections[sectionIndex].rows.append(
                ExchangeRow(
                    text: try unescape(bytes, fields[4], field: "text", failure: failure),
                    name: columns == 6 ? try unescape(bytes, fields[5], field: "name", failure: failure) : "")
            )
        }
        guard sawHeaderLine else {
            throw CliptabError(
                .invalidArgument,
                "tsv data is empty; its first line must be the header "
                    + "\"section\\theader\\tfooter\\trow\\ttext\""
            )
        }
        return ExchangeTable(name: tableName, sections: sections)
    }

    // A section or row number: `0` or digits without a leading zero, small enough for Int.
    // Plain loops over indexes here and below: they run for every row of an import, and the
    // generic sequence algorithms cost many times more in a debug build.
    private static func plainNumber(_ bytes: [UInt8], _ field: Range<Int>) -> Int? {
        guard !field.isEmpty, length(field) <= 18 else { return nil }
        if length(field) > 1 && bytes[field.lowerBound] == 0x30 { return nil }
        var value = 0
        var index = field.lowerBound
        while index < field.upperBound {
            let byte = bytes[index]
            guard byte >= 0x30 && byte <= 0x39 else { return nil }
            value = value * 10 + Int(byte - 0x30)
            index += 1
        }
        return value
    }

    // True when the two fields hold the same bytes.
    private static func sameBytes(_ bytes: [UInt8], _ first: Range<Int>, _ second: Range<Int>) -> Bool {
        guard length(first) == length(second) else { return false }
        var offset = 0
        while offset < length(first) {
            if bytes[first.lowerBound + offset] != bytes[second.lowerBound + offset] { return false }
            offset += 1
        }
        return true
    }

    private static func unescape(
        _ bytes: [UInt8], _ range: Range<Int>, field name: String, failure: (String) -> CliptabError
    ) throws -> String {
        var scan = range.lowerBound
        while scan < range.upperBound && bytes[scan] != backslash { scan += 1 }
        let field = bytes[range]
        guard scan < range.upperBound else { return String(decoding: field, as: UTF8.self) }
        var output: [UInt8] = []
        output.reserveCapacity(field.count)
        var index = field.startIndex
        while index < field.endIndex {
            let byte = field[index]
            index += 1
            guard byte == backslash else {
                output.append(byte)
                continue
            }
            guard index < field.endIndex else {
                throw failure("the \(name) field ends with a lone backslash; write a backslash as \\\\")
            }
            switch field[index] {
            case backslash: output.append(backslash)
            case UInt8(ascii: "t"): output.append(tab)
            case UInt8(ascii: "n"): output.append(newline)
            case UInt8(ascii: "r"): output.append(carriageReturn)
            default:
                let end = min(index + 4, field.endIndex)
                let next = String(decoding: field[index..<end], as: UTF8.self).unicodeScalars.first!
                throw failure(
                    "bad escape \"\\\(next)\" in the \(name) field; the escapes are \\t, \\n, \\r and \\\\")
            }
            index += 1
        }
        return String(decoding: output, as: UTF8.self)
    }
}

// MARK: - json

extension ExchangeCodec {
    private static func encodeJSON(_ table: ExchangeTable) -> [UInt8] {
        var output = Array("{\n  \"name\": ".utf8)
        JSONText.appendQuoted(table.name, to: &output)
        output += Array(",\n  \"sections\": [".utf8)
        for (sectionIndex, section) in table.sections.enumerated() {
            output += Array((sectionIndex == 0 ? "\n" : ",\n").utf8)
            output += Array("    {\n      \"header\": ".utf8)
            JSONText.appendQuoted(section.header, to: &output)
            output += Array(",\n      \"footer\": ".utf8)
            JSONText.appendQuoted(section.footer, to: &output)
            output += Array(",\n      \"rows\": [".utf8)
            for (rowIndex, row) in section.rows.enumerated() {
                output += Array((rowIndex == 0 ? "\n" : ",\n").utf8)
                output += Array("        {\"id\": \(row.id), ".utf8)
                if !row.name.isEmpty {
                    output += Array("\"name\": ".utf8)
                    JSONText.appendQuoted(row.name, to: &output)
                    output += Array(", ".utf8)
                }
                output += Array("\"text\": ".utf8)
                JSONText.appendQuoted(row.text, to: &output)
                output.append(UInt8(ascii: "}"))
            }
            output += Array((section.rows.isEmpty ? "]\n    }" : "\n      ]\n    }").utf8)
        }
        output += Array((table.sections.isEmpty ? "]\n}\n" : "\n  ]\n}\n").utf8)
        return output
    }

    private static func decodeJSON(_ data: String, tableName: String, allowance: inout ExchangeAllowance)
        throws
        -> ExchangeTable
    {
        // A native string lends its UTF-8 bytes as they are; only another kind is copied.
        let allowance = allowance
        let read = { (bytes: UnsafeBufferPointer<UInt8>) in
            try JSONTableReader.read(bytes, tableName: tableName, allowance: allowance)
        }
        if let table = try data.utf8.withContiguousStorageIfAvailable(read) { return table }
        return try Array(data.utf8).withUnsafeBufferPointer(read)
    }
}
