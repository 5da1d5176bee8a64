// SPDX-License-Identifier: MIT
import CliptabCore
import Testing

/// Worked examples of the semantics the randomized model checks in bulk: revisions, menus,
/// copies, DeleteWhere's operators, and the `lines` exchange format.
@Suite("Service semantics by example")
struct ServiceBehaviourTests {
    /// One section of the given texts in table "t".
    static func table(_ texts: [String]) throws -> ServiceRecorder {
        let recorder = ServiceRecorder()
        try recorder.service.createTable("t")
        try recorder.service.insertRows("t", section: 0, row: 0, texts: texts)
        _ = recorder.takeEvents()
        return recorder
    }

    /// The paths of row indexes `rows` in section 0.
    static func paths(_ rows: [Int32]) -> [IndexPath] { rows.map { IndexPath(section: 0, row: $0) } }

    /// A new table has one empty section without titles, at revision 0.
    @Test("A new table has one empty section without titles, at revision 0")
    func newTable() throws {
        let recorder = ServiceRecorder()
        try recorder.service.createTable("t")
        #expect(
            try recorder.service.sections(of: "t").map { "\($0.header)|\($0.footer)|\($0.rows)" } == ["||0"])
        #expect(try recorder.service.revision(of: "t") == 0)
        #expect(try recorder.service.record(of: "t").allowedActions == .all)
        #expect(recorder.takeEvents() == [.tableAdded("t")])
    }

    /// Settings, renames, reads and dry runs leave the revision alone; content changes add one.
    @Test("Settings, renames, reads and dry runs leave the revision alone; content changes add one")
    func revisions() throws {
        let recorder = try Self.table(["a", "b"])
        let service = recorder.service
        let start = try service.revision(of: "t")
        try service.setAllowedActions("t", ["copy", "delete", "insert", "edit", "move"])
        try service.setSecret("t", true)
        try service.renameTable("t", to: "u")
        _ = try service.deleteWhere("u", op: "equals", operand: "a", dryRun: true)
        _ = try service.cellForUse(of: "u", section: 0, row: 0)
        _ = try service.sectionText(of: "u", section: 0, separator: "")
        #expect(try service.revision(of: "u") == start)
        #expect(recorder.takeEvents() == [.tableRenamed(from: "t", to: "u")])
        try service.setCell("u", section: 0, row: 0, text: "a")
        #expect(try service.revision(of: "u") == start + 1, "a set to the same text is still a change")
        #expect(
            recorder.takeEvents() == [.rowsChanged(table: "u", revision: start + 1, paths: Self.paths([0]))])
    }

    /// The menu lists allowed actions in the contract's order; copies carry id and secret flag.
    @Test("The menu lists allowed actions in the contract's order; copies carry id and secret flag")
    func menusAndCopies() throws {
        let recorder = try Self.table(["first", "second", "third"])
        let service = recorder.service
        try service.setAllowedActions("t", ["insert", "copy", "move", "copy"])
        #expect(try service.actions("t", section: 0, row: -1) == [.copy, .move, .insert])
        #expect(try service.canPerform("t", action: "move", section: 0, row: 0))
        #expect(try !service.canPerform("t", action: "cut", section: 0, row: 0))
        let ids = try #require(try recorder.ids("t").first)
        try #require(ids.count > 1)
        var copied = try service.cellForUse(of: "t", section: 0, row: -2)
        #expect(copied.text == "second" && copied.id == ids[1] && !copied.isSecret)
        try service.setSecret("t", true)
        copied = try service.cellForUse(of: "t", section: 0, row: 2)
        #expect(copied.text == "third" && copied.id == ids[2] && copied.isSecret)
        let joined = try service.sectionText(of: "t", section: 0, separator: "\n")
        #expect(joined.text == "first\nsecond\nthird" && joined.isSecret)
    }

    /// GetRows pages with offset and limit; limit 0 is all.
    @Test("GetRows pages with offset and limit; limit 0 is all")
    func paging() throws {
        let recorder = try Self.table(["a", "b", "c", "d", "e"])
        let service = recorder.service
        #expect(try service.rows(of: "t", section: 0, offset: 1, limit: 2).map(\.text) == ["b", "c"])
        #expect(try service.rows(of: "t", section: 0, offset: 3, limit: 0).map(\.text) == ["d", "e"])
        #expect(try service.rows(of: "t", section: 0, offset: 5, limit: 0).isEmpty)
        #expect(try service.rows(of: "t", section: 0, offset: .max, limit: .max).isEmpty)
    }

    /// DeleteWhere's text and numeric operators, as dry runs.
    @Test(
        "DeleteWhere's text and numeric operators, as dry runs",
        arguments: [
            ("equals", "abc", [4]), ("contains", "a", [4, 5]), ("contains", "", [0, 1, 2, 3, 4, 5, 6]),
            ("prefix", "2", [1, 2, 5]), ("suffix", "c", [4]), ("matches", "b", [4]), (">", "2", [2, 3]),
            (">=", "2", [1, 2, 3]), ("<", "2.5", [0, 1]), ("<=", "2.5", [0, 1, 2]), ("==", "2", [1]),
            ("!=", "2", [0, 2, 3]), (">", "-3", [1, 2, 3]), ("==", "-3", [0]),
        ] as [(String, String, [Int32])])
    func deleteWhereOperators(op: String, operand: String, rows: [Int32]) throws {
        let recorder = try Self.table(["-3", "2", "2.5", "10", "abc", "2a", ""])
        let matched = try recorder.service.deleteWhere("t", op: op, operand: operand, dryRun: true)
        #expect(matched == Self.paths(rows), "\(op) \(operand)")
        #expect(try recorder.texts("t").first?.count == 7)
    }

    /// DeleteWhere deletes across sections, all together, and a run that matches nothing still counts.
    @Test("DeleteWhere deletes across sections, all together, and a run that matches nothing still counts")
    func deleteWhereAcrossSections() throws {
        let recorder = try Self.table(["keep", "drop 1", "keep"])
        let service = recorder.service
        try service.insertSection("t", at: -1, header: "B", footer: "")
        try service.insertRows("t", section: 1, row: 0, texts: ["drop 2", "drop 3"])
        _ = recorder.takeEvents()
        let revision = try service.revision(of: "t")
        let expected = [
            IndexPath(section: 0, row: 1), IndexPath(section: 1, row: 0), IndexPath(section: 1, row: 1),
        ]
        #expect(try service.deleteWhere("t", op: "prefix", operand: "drop", dryRun: false) == expected)
        #expect(try recorder.texts("t") == [["keep", "keep"], []])
        #expect(recorder.takeEvents() == [.rowsDeleted(table: "t", revision: revision + 1, paths: expected)])
        #expect(try service.deleteWhere("t", op: "prefix", operand: "drop", dryRun: false).isEmpty)
        #expect(try service.revision(of: "t") == revision + 2)
    }

    /// A table exported as lines imports as the same sections and texts, with new ids.
    @Test("A table exported as lines imports as the same sections and texts, with new ids")
    func linesRoundTrip() throws {
        let recorder = ServiceRecorder()
        let service = recorder.service
        try service.createTable("source")
        try service.setHeader("source", section: 0, text: "Even Numbers")
        try service.insertRows("source", section: 0, row: 0, texts: ["0", "2", "4", "6"])
        try service.insertSection("source", at: -1, header: "Odd Numbers", footer: "")
        try service.insertRows("source", section: 1, row: 0, texts: ["1", "3", "a, b", "tab\there", "日本"])
        try service.insertSection("source", at: -1, header: "", footer: "")
        try service.insertRows("source", section: 2, row: 0, texts: ["no header"])
        let data = try service.export("source", format: "lines")
        _ = recorder.takeEvents()

        #expect(try service.importTable("copy", format: "lines", data: data, replace: false) == 10)
        #expect(try recorder.headers("copy") == ["Even Numbers", "Odd Numbers", ""])
        #expect(try recorder.texts("copy") == recorder.texts("source"))
        let old = Set(try recorder.ids("source").joined())
        let new = Set(try recorder.ids("copy").joined())
        #expect(new.count == 10 && old.isDisjoint(with: new))
        #expect(try service.revision(of: "copy") == 1)
        let events = recorder.takeEvents()
        #expect(events.first == .tableAdded("copy"))
        #expect(events.contains(.sectionsInserted(table: "copy", revision: 1, sections: [0, 1, 2])))

        // Appending imports after the kept sections; replacing drops them first.
        #expect(try service.importTable("copy", format: "lines", data: "x\n## H\ny\n", replace: false) == 2)
        #expect(try recorder.headers("copy") == ["Even Numbers", "Odd Numbers", "", "", "H"])
        #expect(try service.importTable("copy", format: "lines", data: "x\n## H\ny\n", replace: true) == 2)
        #expect(try recorder.headers("copy") == ["", "H"])
        #expect(try recorder.texts("copy") == [["x"], ["y"]])
        #expect(try service.revision(of: "copy") == 3)
    }
}
