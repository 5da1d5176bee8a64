// SPDX-License-Identifier: MIT
import CliptabContract
import CliptabCore
import Testing

/// Row names in the model: the grammar, uniqueness, the `edit` guard, and a name that stays
/// with its row through moves, edits and section moves and goes with it on delete.
@Suite("Row names")
struct RowNameTests {
    /// Table "t": section 0 rows a b c, section 1 (header "H") rows d e.
    static func table() throws -> ServiceRecorder {
        let recorder = ServiceRecorder()
        let service = recorder.service
        try service.createTable("t")
        try service.insertRows("t", section: 0, row: 0, texts: ["a", "b", "c"])
        _ = try service.insertSection("t", at: -1, header: "H", footer: "")
        try service.insertRows("t", section: 1, row: 0, texts: ["d", "e"])
        _ = recorder.takeEvents()
        return recorder
    }

    @Test("The grammar: 1-64 bytes, a letter or _ first, then letters, digits, _ . -")
    func grammar() {
        for good in ["sig", "_", "a.b-c_9", "A", String(repeating: "x", count: 64)] {
            #expect(RowName.isValid(good), "\(good)")
        }
        for bad in [
            "", "9", "-1", "0:1", "@H", "#7", "id:7", "a b", "é", "a/b", String(repeating: "x", count: 65),
        ] {
            #expect(!RowName.isValid(bad), "\(bad)")
        }
    }

    @Test("SetRowName names, renames and clears; RowsChanged and revision +1 each time")
    func setAndClear() throws {
        let recorder = try Self.table()
        let service = recorder.service
        let start = try service.revision(of: "t")
        try service.setRowName("t", section: 0, row: 1, rowName: "sig")
        #expect(
            recorder.takeEvents() == [
                .rowsChanged(table: "t", revision: start + 1, paths: [IndexPath(section: 0, row: 1)])
            ])
        let found = try service.findRow("t", rowName: "sig")
        #expect(found.path == IndexPath(section: 0, row: 1) && found.id == 2)
        try service.setRowName("t", section: 0, row: 1, rowName: "sig2")
        #expect(errorCode { _ = try service.findRow("t", rowName: "sig") } == .noSuchRow)
        #expect(try service.rowNames(of: "t").map(\.name) == ["sig2"])
        try service.setRowName("t", section: 0, row: 1, rowName: "")
        #expect(try service.rowNames(of: "t").isEmpty)
        #expect(try service.revision(of: "t") == start + 3)
    }

    @Test("Bad names, names in use and tables without edit are refused, changing nothing")
    func refusals() throws {
        let recorder = try Self.table()
        let service = recorder.service
        try service.setRowName("t", section: 0, row: 0, rowName: "one")
        let revision = try service.revision(of: "t")
        for bad in ["0:1", "9", "#3", "a b"] {
            #expect(
                errorCode { try service.setRowName("t", section: 0, row: 1, rowName: bad) } == .invalidName)
        }
        #expect(errorCode { try service.setRowName("t", section: 1, row: 0, rowName: "one") } == .nameInUse)
        // Naming a row the name it has is fine.
        try service.setRowName("t", section: 0, row: 0, rowName: "one")
        try service.setAllowedActions("t", ["copy"])
        #expect(
            errorCode { try service.setRowName("t", section: 0, row: 1, rowName: "two") } == .notPermitted)
        #expect(try service.revision(of: "t") == revision + 1)
        #expect(try service.rowNames(of: "t").map(\.name) == ["one"])
    }

    @Test("A name follows its row through inserts, moves, edits and section moves")
    func followsTheRow() throws {
        let recorder = try Self.table()
        let service = recorder.service
        try service.setRowName("t", section: 0, row: 2, rowName: "c")
        try service.setRowName("t", section: 1, row: 0, rowName: "d")
        // Many inserts in front re-key the rows after them.
        for _ in 0..<40 { try service.insertRow("t", section: 0, row: 0, text: "x") }
        #expect(try service.findRow("t", rowName: "c").path == IndexPath(section: 0, row: 42))
        try service.moveRow("t", from: (0, 42), to: (1, 1))
        try service.setCell("t", section: 1, row: 1, text: "C")
        try service.moveSection("t", from: 1, to: 0)
        let c = try service.findRow("t", rowName: "c")
        #expect(c.path == IndexPath(section: 0, row: 1) && c.id == 3)
        #expect(try service.cell(of: "t", section: 0, row: 1) == "C")
        #expect(try service.rowNames(of: "t").map(\.name) == ["d", "c"])
    }

    @Test("A name goes with its row: deleted, cut, matched by DeleteWhere, its section deleted")
    func goesWithTheRow() throws {
        let recorder = try Self.table()
        let service = recorder.service
        for (row, name) in [(0, "a"), (1, "b"), (2, "c")] {
            try service.setRowName("t", section: 0, row: Int32(row), rowName: name)
        }
        try service.setRowName("t", section: 1, row: 1, rowName: "e")
        try service.deleteRow("t", section: 0, row: 0)
        _ = try service.deleteWhere("t", op: "equals", operand: "b", dryRun: false)
        #expect(try service.rowNames(of: "t").map(\.name) == ["c", "e"])
        try service.deleteSections("t", [1])
        #expect(try service.rowNames(of: "t").map(\.name) == ["c"])
        // The freed names can be given again.
        try service.setRowName("t", section: 0, row: 0, rowName: "a")
        #expect(try service.findRow("t", rowName: "a").id == 3)
    }

    @Test("json export gives named rows a name; import restores names and refuses duplicates")
    func exchange() throws {
        let recorder = try Self.table()
        let service = recorder.service
        try service.setRowName("t", section: 1, row: 1, rowName: "e")
        let json = try service.export("t", format: "json")
        #expect(json.contains("{\"id\": 5, \"name\": \"e\", \"text\": \"e\"}"), "\(json)")
        #expect(!json.contains("\"name\": \"d\""))
        #expect(try service.importTable("u", format: "json", data: json, replace: false) == 5)
        #expect(try service.findRow("u", rowName: "e").path == IndexPath(section: 1, row: 1))
        // Into "t" without replacing, "e" would be there twice: refused, nothing imported.
        let before = service.catalog
        #expect(
            errorCode { _ = try service.importTable("t", format: "json", data: json, replace: false) }
                == .nameInUse)
        let bad = json.replacingOccurrences("\"name\": \"e\"", with: "\"name\": \"9e\"")
        #expect(
            errorCode { _ = try service.importTable("v", format: "json", data: bad, replace: false) }
                == .invalidName)
        #expect(service.catalog == before)
        // Replacing, the old rows' names go first.
        #expect(try service.importTable("t", format: "json", data: json, replace: true) == 5)
        #expect(try service.rowNames(of: "t").map(\.name) == ["e"])
    }

    @Test("tsv export adds a name column only when a row has a name; import takes 5 or 6 columns")
    func tsv() throws {
        let recorder = try Self.table()
        let service = recorder.service
        let plain = try service.export("t", format: "tsv")
        #expect(plain.hasPrefix("section\theader\tfooter\trow\ttext\n0\t\t\t0\ta\n"), "\(plain)")
        _ = try service.insertSection("t", at: -1, header: "", footer: "")
        try service.setRowName("t", section: 1, row: 1, rowName: "e")
        let named = try service.export("t", format: "tsv")
        #expect(
            named
                == "section\theader\tfooter\trow\ttext\tname\n0\t\t\t0\ta\t\n0\t\t\t1\tb\t\n0\t\t\t2\tc\t\n"
                + "1\tH\t\t0\td\t\n1\tH\t\t1\te\te\n2\t\t\t\t\t\n")
        #expect(try service.importTable("u", format: "tsv", data: named, replace: false) == 5)
        #expect(try service.export("u", format: "tsv") == named)
        #expect(try service.importTable("p", format: "tsv", data: plain, replace: false) == 5)
        #expect(try service.rowNames(of: "p").isEmpty)
        // lines carries no names.
        #expect(!(try service.export("t", format: "lines").contains("\te")))
    }
}

/// The code of the `CliptabError` that `body` throws; nil if it throws none.
private func errorCode(_ body: () throws -> Void) -> CliptabError.Code? {
    do { try body() } catch { return (error as? CliptabError)?.code }
    return nil
}

extension String {
    /// `self` with every `target` replaced by `replacement` (no Foundation in these tests).
    fileprivate func replacingOccurrences(_ target: String, with replacement: String) -> String {
        var result = ""
        var rest = Substring(self)
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound] + replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
