// SPDX-License-Identifier: MIT

import CliptabCore
import Testing

// The UTF-8 offset of the first `marker` in `data`.
private func offset(of marker: String, in data: String) -> Int {
    let bytes = Array(data.utf8)
    let needle = Array(marker.utf8)
    return (0...(bytes.count - needle.count)).first { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }!
}

private func decodeError(_ data: String, allowance: ExchangeAllowance = .unlimited) -> CliptabError? {
    do {
        _ = try ExchangeCodec.decode(data, as: .json, tableName: "t", allowance: allowance)
        return nil
    } catch {
        return error as? CliptabError
    }
}

// An object of `count` distinct keys, `"k0": 0, "k1": 0, …`, then `extra`.
private func manyKeys(_ count: Int, extra: String = "") -> String {
    var members = (0..<count).map { "\"k\($0)\": 0" }
    if !extra.isEmpty { members.append(extra) }
    return "{" + members.joined(separator: ", ") + "}"
}

/// The json reader beyond what `ExchangeTests` covers: keys in any order, ignored values
/// that are checked but not built, the allowance spent row by row, offsets in messages.
@Suite("JSON table reader")
struct JSONTableReaderTests {
    @Test("keys come in any order: rows before header, text before id")
    func keysInAnyOrder() throws {
        let data = """
            {"version": 3, "sections": [
              {"rows": [{"text": "a", "id": 7, "name": "n_a"}, {"name": "n_b", "text": "b"}],
               "footer": "F", "extra": {"x": [1]}, "header": "H"},
              {"footer": "G", "rows": []}
            ], "name": "ignored"}
            """
        let table = try ExchangeCodec.decode(data, as: .json, tableName: "mine")
        #expect(
            table
                == ExchangeTable(
                    name: "mine",
                    sections: [
                        ExchangeSection(
                            header: "H", footer: "F",
                            rows: [ExchangeRow(text: "a", name: "n_a"), ExchangeRow(text: "b", name: "n_b")]),
                        ExchangeSection(footer: "G"),
                    ]))
    }

    @Test(
        "duplicate keys are refused at the second one, in every object",
        arguments: [
            (#"{"x": {"a": {"b": 1, "c": 2, "b": 9}}, "sections": []}"#, #""b": 9"#),
            (#"{"x": [0, {"c": 1}, {"b": 1, "\u0062": 9}], "sections": []}"#, #""\u0062": 9"#),
            (#"{"sections": [{"rows": [{"text": "a", "x": {"b": 1, "b": 9}}]}]}"#, #""b": 9"#),
            (#"{"sections": [{"rows": [{"text": "a", "b": 1, "b": 9}]}]}"#, #""b": 9"#),
            (#"{"sections": [{"b": [], "rows": [], "b": 9}]}"#, #""b": 9"#),
            (#"{"b": [], "sections": [], "b": 9}"#, #""b": 9"#),
        ])
    func duplicateKeys(_ entry: (String, String)) {
        let (data, second) = entry
        let error = decodeError(data)
        #expect(error?.code == .invalidArgument)
        #expect(
            error?.message.contains(
                "byte offset \(offset(of: second, in: data)): duplicate key \"b\" in an object")
                == true,
            "\(data): \(error?.message ?? "no error")")
    }

    @Test(
        "a known key given twice is refused",
        arguments: [
            (#"{"sections": [], "sections": []}"#, "sections"),
            (#"{"name": "a", "sections": [], "name": "a"}"#, "name"),
            (#"{"sections": [{"header": "", "rows": [], "header": ""}]}"#, "header"),
            (#"{"sections": [{"footer": "", "rows": [], "footer": ""}]}"#, "footer"),
            (#"{"sections": [{"rows": [], "rows": []}]}"#, "rows"),
            (#"{"sections": [{"rows": [{"text": "", "te\u0078t": ""}]}]}"#, "text"),
            (#"{"sections": [{"rows": [{"text": "", "id": 1, "id": 1}]}]}"#, "id"),
            (#"{"sections": [{"rows": [{"text": "", "name": "a", "name": "a"}]}]}"#, "name"),
        ])
    func knownKeysTwice(_ entry: (String, String)) {
        let (data, key) = entry
        let error = decodeError(data)
        #expect(error?.code == .invalidArgument)
        #expect(
            error?.message.contains("duplicate key \"\(key)\" in an object") == true,
            "\(data): \(error?.message ?? "no error")")
    }

    @Test("an ignored object of 100,000 keys is accepted; one more key, a duplicate, is not")
    func manyKeysIgnored() throws {
        let fine =
            "{\"x\": \(manyKeys(100_000)), \"sections\": [{\"rows\": [{\"text\": \"a\", \"y\": \(manyKeys(100_000))}]}]}"
        let table = try ExchangeCodec.decode(fine, as: .json, tableName: "t")
        #expect(table.sections.map(\.rows) == [[ExchangeRow(text: "a")]])
        let twice = "{\"x\": \(manyKeys(100_000, extra: "\"k99999\": 1")), \"sections\": []}"
        let error = decodeError(twice)
        #expect(error?.code == .invalidArgument)
        let at = offset(of: "\"k99999\": 1", in: twice)
        #expect(
            error?.message.contains("byte offset \(at): duplicate key \"k99999\"") == true,
            "\(error?.message ?? "")")
    }

    @Test("nesting counts inside ignored values: 64 levels in all pass, 65 do not")
    func nestingInIgnoredValues() throws {
        // A row is 5 levels deep (top, sections, section, rows, row).
        func data(_ depth: Int) -> String {
            "{\"sections\": [{\"rows\": [{\"text\": \"a\", \"x\": " + String(repeating: "[", count: depth - 5)
                + String(repeating: "]", count: depth - 5) + "}]}]}"
        }
        #expect(try ExchangeCodec.decode(data(64), as: .json, tableName: "t").sections.first?.rows.count == 1)
        let deep = data(65)
        let error = decodeError(deep)
        #expect(error?.code == .invalidArgument)
        let at = offset(of: "[[", in: deep) + 59
        #expect(
            error?.message.contains("byte offset \(at): arrays and objects are nested deeper than 64 levels")
                == true,
            "\(error?.message ?? "no error")")
    }

    @Test("the allowance stops reading at exactly the first row over, before what follows")
    func rowLimitExactly() throws {
        let limits = Limits(maxCellBytes: 100, maxRowsPerTable: 5, maxSectionsPerTable: 3)
        let allowance = ExchangeAllowance(tableName: "t", limits: limits, keptRows: 0, keptSections: 0)
        func rows(_ count: Int) -> String {
            (0..<count).map { "{\"text\": \"r\($0)\"}" }.joined(separator: ", ")
        }
        // Five rows over two sections fit.
        let five = "{\"sections\": [{\"rows\": [\(rows(3))]}, {\"rows\": [\(rows(2))]}]}"
        let table = try ExchangeCodec.decode(five, as: .json, tableName: "t", allowance: allowance)
        #expect(table.sections.map(\.rows.count) == [3, 2])
        // The sixth row is refused, although the text is broken right after it: reading
        // stopped there.
        let six = "{\"sections\": [{\"rows\": [\(rows(3))]}, {\"rows\": [\(rows(3)), !!!"
        let error = decodeError(six, allowance: allowance)
        #expect(error?.code == .limitExceeded)
        #expect(error?.message.contains("at least 6 rows; the limit is 5") == true, "\(error?.message ?? "")")
        // Without the sixth row, the broken text is what is wrong.
        let broken = "{\"sections\": [{\"rows\": [\(rows(3))]}, {\"rows\": [\(rows(2)), !!!"
        #expect(decodeError(broken, allowance: allowance)?.code == .invalidArgument)
        // The fourth section likewise.
        let sections = "{\"sections\": [{\"rows\": []}, {\"rows\": []}, {\"rows\": []}, {\"rows\": !!!"
        let sectionError = decodeError(sections, allowance: allowance)
        #expect(sectionError?.code == .limitExceeded)
        #expect(
            sectionError?.message.contains("at least 4 sections") == true, "\(sectionError?.message ?? "")")
    }

    @Test(
        "schema errors name the path and the byte offset of the value",
        arguments: [
            (
                #"{"sections": [{"rows": [{"text": "a"}, {"text": 1}]}]}"#, "1}",
                "sections[0].rows[1].text must be a string, found a number"
            ),
            (
                #"{"sections": [{"rows": []}, {"rows": [], "header": null}]}"#, "null",
                "sections[1].header must be a string, found null"
            ),
            (
                #"{"sections": [{"rows": [{"text": "a", "name": []}]}]}"#, "[]}",
                "sections[0].rows[0].name must be a string, found an array"
            ),
            (
                #"{"sections": [{"rows": [{"text": "a"}, 7]}]}"#, "7]",
                "sections[0].rows[1] must be an object, found a number"
            ),
            (
                #"{"sections": [{"header": "h"}]}"#, "{\"header",
                "sections[0].rows is missing; it must be an array"
            ),
            (#"{"sections": [{"rows": {}}]}"#, "{}", "sections[0].rows must be an array, found an object"),
            (
                #"{"x": "é日本", "sections": [{"rows": [{"id": 1}]}]}"#, "{\"id",
                "sections[0].rows[0].text is missing"
            ),
        ])
    func schemaErrorOffsets(_ entry: (String, String, String)) {
        let (data, marker, message) = entry
        let error = decodeError(data)
        #expect(error?.code == .invalidArgument)
        let at = offset(of: marker, in: data)
        #expect(
            error?.message.contains("bad table JSON at byte offset \(at): \(message)") == true,
            "\(data): \(error?.message ?? "no error")")
    }

    @Test("a syntax error after a schema error is the one reported, as the first thing wrong with the text")
    func syntaxBeforeSchema() {
        let data = #"{"sections": [{"rows": [{"text": 1}]}], "x": [1 2]}"#
        let error = decodeError(data)
        #expect(
            error?.message.contains(
                "bad JSON at byte offset \(offset(of: "2]", in: data)): expected `,` or `]`") == true,
            "\(error?.message ?? "")")
    }

    @Test("16 MiB of empty rows stop at the row limit, as in the hostile catalogue")
    func sixteenMiBOfRows() throws {
        let row = #"{"text":""},"#
        let data =
            #"{"name":"i","sections":[{"header":"","footer":"","rows":["#
            + String(repeating: row, count: (16 << 20) / row.utf8.count) + #"{"text":""}]}]}"#
        let recorder = ServiceRecorder()
        let error = #expect(throws: CliptabError.self) {
            _ = try recorder.service.importTable("i", format: "json", data: data, replace: false)
        }
        #expect(error?.code == .limitExceeded)
        #expect(
            error?.message.contains("at least 1000001 rows; the limit is 1000000") == true,
            "\(error?.message ?? "")")
    }
}
