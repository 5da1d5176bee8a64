// SPDX-License-Identifier: MIT

import CliptabCore
import TestSupport
import Testing

private let sample = ExchangeTable(
    name: "Groceries",
    sections: [
        ExchangeSection(rows: [ExchangeRow(id: 1, text: "milk"), ExchangeRow(id: 2, text: "eggs\t12")]),
        ExchangeSection(
            header: "Fruit", footer: "in season",
            rows: [ExchangeRow(id: 3, text: "apple"), ExchangeRow(id: 4, text: "")]),
        ExchangeSection(header: "Empty"),
    ])

// The table with every id set to 0, as decoding gives it.
private func withoutIDs(_ table: ExchangeTable) -> ExchangeTable {
    var copy = table
    for s in copy.sections.indices {
        for r in copy.sections[s].rows.indices { copy.sections[s].rows[r].id = 0 }
    }
    return copy
}

// Every string of a table as bytes: `==` on `String` identifies canonically equivalent
// texts, while a round trip must keep every scalar.
private func bytes(_ table: ExchangeTable) -> [[UInt8]] {
    var all = [Array(table.name.utf8)]
    for section in table.sections {
        all += [Array(section.header.utf8), Array(section.footer.utf8), Array("\(section.rows.count)".utf8)]
        all += section.rows.map { Array($0.text.utf8) }
    }
    return all
}

private func decodeError(_ data: String, _ format: ExchangeFormat) -> CliptabError? {
    do {
        _ = try ExchangeCodec.decode(data, as: format, tableName: "t")
        return nil
    } catch {
        return error as? CliptabError
    }
}

private func encodeError(_ table: ExchangeTable, _ format: ExchangeFormat) -> CliptabError? {
    do {
        _ = try ExchangeCodec.encode(table, as: format)
        return nil
    } catch {
        return error as? CliptabError
    }
}

private let tsvHeader = "section\theader\tfooter\trow\ttext\n"

@Suite("Exchange formats")
struct ExchangeTests {
    @Test("format names")
    func formatNames() throws {
        for format in ExchangeFormat.allCases {
            #expect(try ExchangeFormat(parsing: format.rawValue) == format)
        }
        for name in ["xml", "JSON", "", "tsv "] {
            #expect {
                try ExchangeFormat(parsing: name)
            } throws: { error in
                let error = error as? CliptabError
                return error?.code == .invalidArgument && error?.message.contains("json, tsv, lines") == true
                    && error?.message.contains("\"\(name)\"") == true
            }
        }
    }

    @Test("lines: exact encoding of the sample")
    func linesEncoding() throws {
        let expected = "milk\neggs\t12\n## Fruit\napple\n\n## Empty\n"
        #expect(try ExchangeCodec.encode(sample, as: .lines) == expected)
        var back = withoutIDs(sample)
        back.sections[1].footer = ""
        #expect(try ExchangeCodec.decode(expected, as: .lines, tableName: "Groceries") == back)
    }

    @Test("tsv: exact encoding of the sample")
    func tsvEncoding() throws {
        let expected =
            tsvHeader + "0\t\t\t0\tmilk\n0\t\t\t1\teggs\\t12\n1\tFruit\tin season\t0\tapple\n"
            + "1\tFruit\tin season\t1\t\n2\tEmpty\t\t\t\n"
        #expect(try ExchangeCodec.encode(sample, as: .tsv) == expected)
        #expect(try ExchangeCodec.decode(expected, as: .tsv, tableName: "Groceries") == withoutIDs(sample))
    }

    @Test("json: exact encoding of the sample")
    func jsonEncoding() throws {
        let expected = """
            {
              "name": "Groceries",
              "sections": [
                {
                  "header": "",
                  "footer": "",
                  "rows": [
                    {"id": 1, "text": "milk"},
                    {"id": 2, "text": "eggs\\t12"}
                  ]
                },
                {
                  "header": "Fruit",
                  "footer": "in season",
                  "rows": [
                    {"id": 3, "text": "apple"},
                    {"id": 4, "text": ""}
                  ]
                },
                {
                  "header": "Empty",
                  "footer": "",
                  "rows": []
                }
              ]
            }

            """
        #expect(try ExchangeCodec.encode(sample, as: .json) == expected)
        #expect(try ExchangeCodec.decode(expected, as: .json, tableName: "Groceries") == withoutIDs(sample))
        #expect(
            try ExchangeCodec.encode(ExchangeTable(name: "none"), as: .json)
                == "{\n  \"name\": \"none\",\n  \"sections\": []\n}\n")
    }

    @Test("escapes: tsv and json")
    func escapes() throws {
        let tricky = "q\"\\/\u{01}\u{1F}\u{7F}é😀\n\t\r\u{08}\u{0C}\u{0}"
        let table = ExchangeTable(
            name: "n\"",
            sections: [
                ExchangeSection(
                    header: "a\tb", footer: "c\\n",
                    rows: [ExchangeRow(id: 18446744073709551615, text: tricky)])
            ])
        #expect(
            try ExchangeCodec.encode(table, as: .tsv)
                == tsvHeader + "0\ta\\tb\tc\\\\n\t0\t"
                + "q\"\\\\/\u{01}\u{1F}\u{7F}é😀\\n\\t\\r\u{08}\u{0C}\u{0}\n"
        )
        let json = try ExchangeCodec.encode(table, as: .json)
        #expect(json.contains("\"name\": \"n\\\"\""))
        #expect(json.contains("\"header\": \"a\\tb\""))
        #expect(json.contains("\"footer\": \"c\\\\n\""))
        #expect(
            json.contains(
                "{\"id\": 18446744073709551615, \"text\": "
                    + "\"q\\\"\\\\/\\u0001\\u001f\u{7F}é😀\\n\\t\\r\\b\\f\\u0000\"}"
            ))
    }

    @Test("lines: the choices where the spec is silent")
    func linesChoices() throws {
        func decoded(_ data: String) throws -> [ExchangeSection] {
            try ExchangeCodec.decode(data, as: .lines, tableName: "t").sections
        }
        // No sections and nothing are the same; a lone empty section needs its `##`.
        #expect(try ExchangeCodec.encode(ExchangeTable(name: "t"), as: .lines) == "")
        #expect(try decoded("") == [])
        #expect(
            try ExchangeCodec.encode(ExchangeTable(name: "t", sections: [ExchangeSection()]), as: .lines)
                == "##\n")
        #expect(try decoded("##\n") == [ExchangeSection()])
        #expect(try decoded("##") == [ExchangeSection()])
        // Data starting with `##` has no implicit first section.
        #expect(try decoded("## H\nx\n") == [ExchangeSection(header: "H", rows: [ExchangeRow(text: "x")])])
        #expect(
            try decoded("x\n##\n")
                == [ExchangeSection(rows: [ExchangeRow(text: "x")]), ExchangeSection()])
        // One space after `##` is dropped, no more; no space is fine.
        #expect(try decoded("## \n##  two\n##three\n").map(\.header) == ["", " two", "three"])
        // A final line may lack its newline; `\r\n` is a line break; a lone `\r` is text.
        #expect(try decoded("a\r\nb\rc\r\n\r\nd").first?.rows.map(\.text) == ["a", "b\rc", "", "d"])
        // An empty line is an empty row; a single `#` is text.
        #expect(try decoded("\n#x\n").first?.rows.map(\.text) == ["", "#x"])
    }

    @Test(
        "lines: rows and headers it cannot express",
        arguments: [
            (
                ExchangeSection(rows: [ExchangeRow(text: "ok"), ExchangeRow(text: "two\nlines")]), "row 1:1",
                "line break"
            ),
            (ExchangeSection(rows: [ExchangeRow(text: "##x")]), "row 1:0", "starts with \"##\""),
            (
                ExchangeSection(rows: [
                    ExchangeRow(text: "a"), ExchangeRow(text: "b"), ExchangeRow(text: "x\r"),
                ]), "row 1:2", "carriage return"
            ),
            (ExchangeSection(header: "two\nlines"), "header of section 1", "line break"),
            (ExchangeSection(header: "h\r"), "header of section 1", "carriage return"),
        ])
    func linesInexpressible(_ entry: (ExchangeSection, String, String)) throws {
        let (section, place, reason) = entry
        let table = ExchangeTable(
            name: "t", sections: [ExchangeSection(rows: [ExchangeRow(text: "first")]), section])
        let error = encodeError(table, .lines)
        #expect(error?.code == .invalidArgument)
        #expect(error?.message.contains(place) == true, "\(error?.message ?? "no error")")
        #expect(error?.message.contains(reason) == true, "\(error?.message ?? "no error")")
        // The other formats express it.
        for format in [ExchangeFormat.tsv, .json] {
            let data = try ExchangeCodec.encode(table, as: format)
            #expect(try bytes(ExchangeCodec.decode(data, as: format, tableName: "t")) == bytes(table))
        }
        // `##` inside a row, a `\r` inside and a `#` first are fine.
        let fine = ExchangeTable(
            name: "t",
            sections: [
                ExchangeSection(header: "#", rows: [ExchangeRow(text: "a##\rb"), ExchangeRow(text: "#")])
            ])
        #expect(try ExchangeCodec.encode(fine, as: .lines) == "## #\na##\rb\n#\n")
    }

    private static func randomText(_ random: inout SeededRandom, forLines: Bool) -> String {
        let pool = [
            "a", "Z", "0", " ", "\t", "\n", "\r", "\r\n", "\\", "\\t", "\\n", "#", "##", "\"", "\u{0}",
            "\u{1}",
            "\u{1F}", "\u{7F}", "é", "e\u{301}", "日本", "😀", "\u{2028}", "{", "}", ":", ",", "[", "]",
            "\u{FEFF}",
        ]
        var text = ""
        for _ in 0..<Int.random(in: 0...6, using: &random) { text += pool.randomElement(using: &random)! }
        if forLines {
            text = String(text.unicodeScalars.filter { $0 != "\n" }.map(Character.init))
            if text.utf8.starts(with: "##".utf8) { text = "x" + text }
            if text.utf8.last == UInt8(ascii: "\r") { text += "x" }
        }
        return text
    }

    private static func randomTable(_ random: inout SeededRandom, forLines: Bool) -> ExchangeTable {
        var table = ExchangeTable(name: randomText(&random, forLines: false))
        for _ in 0..<Int.random(in: 0...4, using: &random) {
            var section = ExchangeSection(
                header: Int.random(in: 0..<3, using: &random) == 0
                    ? "" : randomText(&random, forLines: forLines),
                footer: forLines ? "" : randomText(&random, forLines: false))
            for _ in 0..<Int.random(in: 0...4, using: &random) {
                section.rows.append(
                    ExchangeRow(id: random.next(), text: randomText(&random, forLines: forLines)))
            }
            table.sections.append(section)
        }
        return table
    }

    // yaml is written and read by the table-file codec, outside the core (TableFileTests).
    @Test("round trips of random tables", arguments: ExchangeFormat.allCases.filter { $0 != .yaml })
    func roundTrips(_ format: ExchangeFormat) throws {
        var random = SeededRandom(
            "ExchangeTests.roundTrips(\(format))", fixed: 0xE7C4_A46E ^ UInt64(format.rawValue.utf8.count))
        for _ in 0..<400 {
            let table = withoutIDs(Self.randomTable(&random, forLines: format == .lines))
            let data = try ExchangeCodec.encode(table, as: format)
            let back = try ExchangeCodec.decode(data, as: format, tableName: table.name)
            #expect(back == table, "\(data.debugDescription)")
            #expect(bytes(back) == bytes(table), "\(data.debugDescription)")
        }
    }

    @Test("json: ids are written and ignored on reading")
    func jsonIDs() throws {
        let table = ExchangeTable(
            name: "t", sections: [ExchangeSection(rows: [ExchangeRow(id: 42, text: "x")])])
        let data = try ExchangeCodec.encode(table, as: .json)
        #expect(data.contains("{\"id\": 42, \"text\": \"x\"}"))
        #expect(
            try ExchangeCodec.decode(data, as: .json, tableName: "t").sections[0].rows == [
                ExchangeRow(id: 0, text: "x")
            ])
    }

    @Test(
        "tsv: every import error names its line",
        arguments: [
            ("", "tsv data is empty"),
            ("section\theader\tfooter\trow\n", "tsv line 1: expected the header line"),
            ("\n" + tsvHeader, "tsv line 1: expected the header line"),
            (
                tsvHeader + "0\t\t\t0\n",
                "tsv line 2: expected 5 tab-separated fields (section, header, footer, row, text), found 4"
            ),
            (tsvHeader + "0\t\t\t0\ta\tb\n", "tsv line 2: expected 5 tab-separated fields"),
            (tsvHeader + "0\t\t\t0\ta\n\n", "tsv line 3: expected 5 tab-separated fields"),
            (tsvHeader + "1\t\t\t0\ta\n", "tsv line 2: section number 1 is out of order; expected 0"),
            (
                tsvHeader + "0\t\t\t0\ta\n2\t\t\t0\tb\n",
                "tsv line 3: section number 2 is out of order; expected 0 or 1"
            ),
            (
                tsvHeader + "0\t\t\t0\ta\n1\t\t\t0\tb\n0\t\t\t1\tc\n",
                "tsv line 4: section number 0 is out of order"
            ),
            (tsvHeader + "x\t\t\t0\ta\n", "tsv line 2: the section number \"x\" is not a plain number"),
            (tsvHeader + "-0\t\t\t0\ta\n", "tsv line 2: the section number \"-0\" is not a plain number"),
            (tsvHeader + "00\t\t\t0\ta\n", "tsv line 2: the section number \"00\" is not a plain number"),
            (
                tsvHeader + "0\t\t\t0\ta\n0\tH\t\t1\tb\n",
                "tsv line 3: the header or footer of section 0 differs from the one on line 2"
            ),
            (
                tsvHeader + "0\t\tF\t0\ta\n0\t\tG\t1\tb\n",
                "tsv line 3: the header or footer of section 0 differs"
            ),
            (tsvHeader + "0\t\t\t1\ta\n", "tsv line 2: the row number \"1\" is wrong; expected 0"),
            (
                tsvHeader + "0\t\t\t0\ta\n0\t\t\t0\tb\n",
                "tsv line 3: the row number \"0\" is wrong; expected 1"
            ),
            (tsvHeader + "0\t\t\t01\ta\n", "tsv line 2: the row number \"01\" is wrong"),
            (
                tsvHeader + "0\t\t\t\tx\n",
                "tsv line 2: an empty row number stands for a section without rows, so the text"
            ),
            (
                tsvHeader + "0\t\t\t\t\n0\t\t\t0\ta\n",
                "tsv line 3: section 0 was given as a section without rows on line 2"
            ),
            (
                tsvHeader + "0\t\t\t0\ta\n0\t\t\t\t\n",
                "tsv line 3: an empty row number stands for a section without rows, but section 0 has rows"
            ),
            (tsvHeader + "0\t\t\t0\ta\\qb\n", "tsv line 2: bad escape \"\\q\" in the text field"),
            (tsvHeader + "0\t\t\t0\ta\\é\n", "tsv line 2: bad escape \"\\é\" in the text field"),
            (tsvHeader + "0\ta\\\t\t0\tx\n", "tsv line 2: the header field ends with a lone backslash"),
            (tsvHeader + "0\t\tf\\x\t0\tx\n", "tsv line 2: bad escape \"\\x\" in the footer field"),
        ])
    func tsvErrors(_ entry: (String, String)) {
        let (data, message) = entry
        let error = decodeError(data, .tsv)
        #expect(error?.code == .invalidArgument)
        #expect(error?.message.contains(message) == true, "\(error?.message ?? "no error")")
    }

    @Test("tsv: CRLF line ends and a missing final newline are accepted")
    func tsvTolerance() throws {
        let data = "section\theader\tfooter\trow\ttext\r\n0\tH\t\t0\ta\\r\r\n1\t\t\t\t"
        let table = try ExchangeCodec.decode(data, as: .tsv, tableName: "t")
        #expect(
            table
                == ExchangeTable(
                    name: "t",
                    sections: [
                        ExchangeSection(header: "H", rows: [ExchangeRow(text: "a\r")]), ExchangeSection(),
                    ]))
        #expect(try ExchangeCodec.decode(tsvHeader, as: .tsv, tableName: "t") == ExchangeTable(name: "t"))
    }

    @Test(
        "json: every syntax error names its byte offset",
        arguments: [
            ("", "byte offset 0: unexpected end of data"),
            ("  ", "byte offset 2: unexpected end of data"),
            ("{\"sections\": [}", "byte offset 14: expected a value"),
            ("{\"sections\": []} x", "byte offset 17: unexpected `x` after the end"),
            ("{\"sections\": [],}", "byte offset 16: expected a string key"),
            ("{\"sections\": [1,]}", "byte offset 16: expected a value"),
            ("{\"sections\": [1 2]}", "byte offset 16: expected `,` or `]`"),
            ("{\"sections\" []}", "byte offset 12: expected `:` after the key \"sections\""),
            ("{\"sections\": [] \"x\": 1}", "byte offset 16: expected `,` or `}`"),
            ("{sections: []}", "byte offset 1: expected a string key"),
            ("{'sections': []}", "byte offset 1: expected a string key"),
            ("{\"a\": 1, \"a\": 2, \"sections\": []}", "byte offset 9: duplicate key \"a\""),
            (
                "{\"x\": {" + (0..<20).map { "\"k\($0)\": 0, " }.joined() + "\"k3\": 1}, \"sections\": []}",
                "byte offset 197: duplicate key \"k3\""
            ),
            ("{\"a\": \"x\u{1}\", \"sections\": []}", "byte offset 8: U+0001 must be written as an escape"),
            ("{\"a\": \"x\ny\", \"sections\": []}", "byte offset 8: U+000A must be written as an escape"),
            ("{\"a\": \"x", "byte offset 6: unterminated string"),
            ("{\"a\": \"x\\", "byte offset 9: unterminated string"),
            ("{\"a\": \"\\x\"}", "byte offset 7: bad escape"),
            ("{\"a\": \"\\u12G4\"}", "byte offset 7: \\u must be followed by four hexadecimal digits"),
            ("{\"a\": \"\\ud83d\"}", "byte offset 7: lone high surrogate \\uD83D"),
            ("{\"a\": \"\\ud83dx\"}", "byte offset 7: lone high surrogate"),
            ("{\"a\": \"\\ud83d\\u0041\"}", "byte offset 7: high surrogate \\uD83D is followed by \\u0041"),
            ("{\"a\": \"\\ude00\"}", "byte offset 7: lone low surrogate \\uDE00"),
            ("{\"a\": 01}", "byte offset 7: a number cannot have a leading zero"),
            ("{\"a\": 1.}", "byte offset 8: expected a digit after the decimal point"),
            ("{\"a\": .5}", "byte offset 6: expected a value"),
            ("{\"a\": +1}", "byte offset 6: expected a value"),
            ("{\"a\": -}", "byte offset 7: expected a digit, found `}`"),
            ("{\"a\": 1e}", "byte offset 8: expected a digit in the exponent"),
            ("{\"a\": tru}", "byte offset 6: expected `true`, found `t`"),
            ("{\"a\": nul", "byte offset 6: expected `null`"),
            ("{\"a\": NaN}", "byte offset 6: expected a value"),
            (
                "\u{FEFF}{\"sections\": []}",
                "byte offset 0: expected a value (an object, array, string, number, true, false or null), "
                    + "found U+FEFF"
            ),
            ("{\"sections\":\u{A0}[]}", "byte offset 12: expected a value"),
            ("{\"sections\":\u{0C}[]}", "byte offset 12: expected a value"),
            (
                "{\"x\": " + String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
                    + ", \"sections\": []}",
                "byte offset 69: arrays and objects are nested deeper than 64 levels"
            ),
        ])
    func jsonSyntaxErrors(_ entry: (String, String)) {
        let (data, message) = entry
        let error = decodeError(data, .json)
        #expect(error?.code == .invalidArgument)
        #expect(
            error?.message.contains(message) == true,
            "\(data.debugDescription): \(error?.message ?? "no error")")
    }

    @Test(
        "json: every schema error names the place and its byte offset",
        arguments: [
            (
                "[]",
                "byte offset 0: the top level ({\"name\": …, \"sections\": […]}) must be an object, "
                    + "found an array"
            ),
            ("\"x\"", "must be an object, found a string"),
            ("{}", "byte offset 0: sections is missing; it must be an array"),
            ("{\"name\": 1, \"sections\": []}", "byte offset 9: name must be a string, found a number"),
            ("{\"sections\": {}}", "byte offset 13: sections must be an array, found an object"),
            ("{\"sections\": [null]}", "byte offset 14: sections[0] must be an object, found null"),
            ("{\"sections\": [{\"rows\": []}, {}]}", "byte offset 28: sections[1].rows is missing"),
            (
                "{\"sections\": [{\"header\": true, \"rows\": []}]}",
                "byte offset 25: sections[0].header must be a string, found a boolean"
            ),
            (
                "{\"sections\": [{\"footer\": [], \"rows\": []}]}",
                "sections[0].footer must be a string, found an array"
            ),
            (
                "{\"sections\": [{\"rows\": [{\"text\": \"a\"}, {\"id\": 1}]}]}",
                "byte offset 39: sections[0].rows[1].text is missing"
            ),
            (
                "{\"sections\": [{\"rows\": [{\"text\": 5}]}]}",
                "byte offset 33: sections[0].rows[0].text must be a string, found a number"
            ),
            (
                "{\"sections\": [{\"rows\": [{\"text\": null}]}]}",
                "sections[0].rows[0].text must be a string, found null"
            ),
            (
                "{\"sections\": [{\"rows\": [\"a\"]}]}",
                "byte offset 24: sections[0].rows[0] must be an object, found a string"
            ),
        ])
    func jsonSchemaErrors(_ entry: (String, String)) {
        let (data, message) = entry
        let error = decodeError(data, .json)
        #expect(error?.code == .invalidArgument)
        #expect(
            error?.message.contains(message) == true,
            "\(data.debugDescription): \(error?.message ?? "no error")")
    }

    @Test("json: what reading accepts")
    func jsonAccepts() throws {
        let data = """
             \t\r\n{"sections" : [ { "rows" : [
            {"text":"a\\u00e9\\ud83d\\ude00\\/\\"\\\\\\b\\f\\n\\r\\t\\u0000", "id": -1.5e+3},
            {"id": null, "text": "", "colour": {"deep": [1, true, false, null, 0, -0, 2.5E-7, {}]}},
            {"text": "b"} ],
            "footer": "F", "extra": []}, {"rows": []} ], "name": "ignored", "version": 2}\r\n
            """
        let table = try ExchangeCodec.decode(data, as: .json, tableName: "mine")
        let expected = ExchangeTable(
            name: "mine",
            sections: [
                ExchangeSection(
                    footer: "F",
                    rows: [
                        ExchangeRow(text: "aé😀/\"\\\u{08}\u{0C}\n\r\t\u{0}"), ExchangeRow(text: ""),
                        ExchangeRow(text: "b"),
                    ]),
                ExchangeSection(),
            ])
        #expect(table == expected)
        #expect(bytes(table) == bytes(expected))
        // Nesting up to the limit is fine.
        let deep =
            "{\"x\": " + String(repeating: "[", count: 63) + String(repeating: "]", count: 63)
            + ", \"sections\": []}"
        #expect(try ExchangeCodec.decode(deep, as: .json, tableName: "t") == ExchangeTable(name: "t"))
    }
}
