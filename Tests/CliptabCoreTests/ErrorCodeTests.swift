// SPDX-License-Identifier: MIT
import CliptabCore
import Testing

/// Each error kind the core can produce, provoked through the service, with a message that
/// names the offending value; each refused call must change nothing.
@Suite("Error kinds and messages")
struct ErrorCodeTests {
    /// A table "t" with one section of three rows "a" "b" "c".
    static func threeRows(limits: Limits = .defaults) throws -> ServiceRecorder {
        let recorder = ServiceRecorder(limits: limits)
        try recorder.service.createTable("t")
        try recorder.service.insertRows("t", section: 0, row: 0, texts: ["a", "b", "c"])
        _ = recorder.takeEvents()
        return recorder
    }

    /// NoSuchTable names the table.
    @Test("NoSuchTable names the table")
    func noSuchTable() throws {
        let recorder = try Self.threeRows()
        let service = recorder.service
        recorder.expectRefused(.noSuchTable, mentioning: ["\"ghost\""]) {
            _ = try service.revision(of: "ghost")
        }
        recorder.expectRefused(.noSuchTable, mentioning: ["ghost"]) {
            try service.insertRow("ghost", section: 0, row: 0, text: "x")
        }
        recorder.expectRefused(.noSuchTable, mentioning: ["ghost"]) { try service.dropTable("ghost") }
        recorder.expectRefused(.noSuchTable, mentioning: ["ghost"]) {
            try service.renameTable("ghost", to: "u")
        }
        recorder.expectRefused(.noSuchTable, mentioning: ["ghost"]) {
            _ = try service.export("ghost", format: "lines")
        }
        recorder.expectRefused(.noSuchTable, mentioning: ["ghost"]) { try service.setSecret("ghost", true) }
    }

    /// TableExists names the table, for create and rename.
    @Test("TableExists names the table, for create and rename")
    func tableExists() throws {
        let recorder = try Self.threeRows()
        let service = recorder.service
        try service.createTable("u")
        recorder.expectRefused(.tableExists, mentioning: ["\"t\""]) { try service.createTable("t") }
        recorder.expectRefused(.tableExists, mentioning: ["\"u\""]) { try service.renameTable("t", to: "u") }
        // Renaming to its own name is no change, not a clash.
        try service.renameTable("t", to: "t")
        #expect(service.listTables() == ["t", "u"])
    }

    /// InvalidName: empty, over 255 bytes, control characters, slash.
    @Test(
        "InvalidName: empty, over 255 bytes, control characters, slash",
        arguments: [
            ("", "empty"), (String(repeating: "a", count: 256), "256"),
            (String(repeating: "é", count: 128), "256"),
            ("tab\there", "U+9"), ("bell\u{7}", "U+7"), ("del\u{7F}", "U+7F"), ("next\u{85}line", "U+85"),
            ("new\nline", "U+A"), ("a/b", "a/b"), ("/", "\"/\""),
        ])
    func invalidName(name: String, mention: String) throws {
        let recorder = try Self.threeRows()
        let service = recorder.service
        recorder.expectRefused(.invalidName, mentioning: [mention]) { try service.createTable(name) }
        recorder.expectRefused(.invalidName, mentioning: [mention]) { try service.renameTable("t", to: name) }
        recorder.expectRefused(.invalidName, mentioning: [mention]) {
            _ = try service.importTable(name, format: "lines", data: "x\n", replace: false)
        }
    }

    /// Names of exactly 255 bytes, and non-ASCII names, are valid.
    @Test("Names of exactly 255 bytes, and non-ASCII names, are valid")
    func longestValidName() throws {
        let recorder = ServiceRecorder()
        let name = String(repeating: "é", count: 127) + "a"
        #expect(name.utf8.count == 255)
        try recorder.service.createTable(name)
        try recorder.service.createTable("日本 tables, with spaces")
        #expect(recorder.service.listTables() == [name, "日本 tables, with spaces"])
    }

    /// NoSuchSection names the header; headers compare byte for byte.
    @Test("NoSuchSection names the header; headers compare byte for byte")
    func noSuchSection() throws {
        let recorder = try Self.threeRows()
        let service = recorder.service
        try service.setHeader("t", section: 0, text: "caf\u{E9}")
        recorder.expectRefused(.noSuchSection, mentioning: ["Odd Numbers"]) {
            _ = try service.findSection("t", header: "Odd Numbers")
        }
        // "é" precomposed and "e" + combining acute are the same to Swift's ==, not to the contract.
        recorder.expectRefused(.noSuchSection) { _ = try service.findSection("t", header: "cafe\u{301}") }
        #expect(try service.findSection("t", header: "caf\u{E9}") == 0)
    }

    /// NoSuchRow names the id, also for the id of a deleted row.
    @Test("NoSuchRow names the id, also for the id of a deleted row")
    func noSuchRow() throws {
        let recorder = try Self.threeRows()
        let service = recorder.service
        recorder.expectRefused(.noSuchRow, mentioning: ["424242"]) { _ = try service.locate(424242) }
        let id = try #require(try recorder.ids("t").first?.dropFirst().first)
        try service.deleteRow("t", section: 0, row: 1)
        recorder.expectRefused(.noSuchRow, mentioning: ["\(id)"]) { _ = try service.locate(id) }
    }

    /// IndexOutOfRange names the index and the valid range.
    @Test("IndexOutOfRange names the index and the valid range")
    func indexOutOfRange() throws {
        let recorder = try Self.threeRows()
        let service = recorder.service
        recorder.expectRefused(.indexOutOfRange, mentioning: ["section index 1", "0...0 or -1...-1"]) {
            _ = try service.cell(of: "t", section: 1, row: 0)
        }
        recorder.expectRefused(.indexOutOfRange, mentioning: ["row index 3", "0...2 or -3...-1"]) {
            _ = try service.cell(of: "t", section: 0, row: 3)
        }
        recorder.expectRefused(.indexOutOfRange, mentioning: ["row index -4", "0...2 or -3...-1"]) {
            try service.setCell("t", section: 0, row: -4, text: "x")
        }
        recorder.expectRefused(.indexOutOfRange, mentioning: ["row index 4", "0...3 or -1 to append"]) {
            try service.insertRow("t", section: 0, row: 4, text: "x")
        }
        recorder.expectRefused(.indexOutOfRange, mentioning: ["section index -2", "0...1 or -1 to append"]) {
            try service.insertSection("t", at: -2, header: "", footer: "")
        }
        recorder.expectRefused(.indexOutOfRange, mentioning: ["-2147483648"]) {
            try service.moveSection("t", from: .min, to: 0)
        }
        recorder.expectRefused(.indexOutOfRange, mentioning: ["2147483647"]) {
            try service.deleteRows("t", sections: [0], rows: [.max])
        }
        recorder.expectRefused(
            .indexOutOfRange, mentioning: ["destination row index 3", "0...2 or -1 to append"]
        ) {
            try service.moveRow("t", from: (0, 0), to: (0, 3))
        }
        recorder.expectRefused(.indexOutOfRange, mentioning: ["destination section index 1"]) {
            try service.moveRow("t", from: (0, 0), to: (1, 0))
        }
        // All or nothing: a good index before the bad one is not deleted either.
        recorder.expectRefused(.indexOutOfRange, mentioning: ["section index 5"]) {
            try service.deleteSections("t", [0, 5])
        }
        recorder.expectRefused(.indexOutOfRange, mentioning: ["row index 7"]) {
            try service.deleteRows("t", sections: [0, 0], rows: [0, 7])
        }
        try service.insertSection("t", at: -1, header: "", footer: "")
        recorder.expectRefused(.indexOutOfRange, mentioning: ["row index 0", "there are no rows"]) {
            _ = try service.cellForUse(of: "t", section: 1, row: 0)
        }
        try service.deleteSections("t", [0, 1])
        recorder.expectRefused(.indexOutOfRange, mentioning: ["section index -1", "there are no sections"]) {
            _ = try service.rows(of: "t", section: -1, offset: 0, limit: 0)
        }
    }

    /// InvalidArgument names the duplicate, the operator, the operand, the action or the format.
    @Test("InvalidArgument names the duplicate, the operator, the operand, the action or the format")
    func invalidArgument() throws {
        let recorder = try Self.threeRows()
        let service = recorder.service
        try service.insertSection("t", at: -1, header: "", footer: "")
        recorder.expectRefused(.invalidArgument, mentioning: ["section 1", "-1"]) {
            try service.deleteSections("t", [1, -1])
        }
        recorder.expectRefused(.invalidArgument, mentioning: ["0:1"]) {
            try service.deleteRows("t", sections: [0, 0], rows: [1, -2])
        }
        recorder.expectRefused(.invalidArgument, mentioning: ["2 and 1"]) {
            try service.deleteRows("t", sections: [0, 0], rows: [1])
        }
        recorder.expectRefused(.invalidArgument, mentioning: ["\"like\""]) {
            _ = try service.deleteWhere("t", op: "like", operand: "a", dryRun: false)
        }
        recorder.expectRefused(.invalidArgument, mentioning: ["\"two\""]) {
            _ = try service.deleteWhere("t", op: ">", operand: "two", dryRun: false)
        }
        recorder.expectRefused(.invalidArgument, mentioning: ["a("]) {
            _ = try service.deleteWhere("t", op: "matches", operand: "a(", dryRun: true)
        }
        recorder.expectRefused(.invalidArgument, mentioning: ["\"fly\""]) {
            _ = try service.canPerform("t", action: "fly", section: 0, row: 0)
        }
        recorder.expectRefused(.invalidArgument, mentioning: ["\"Paste\""]) {
            try service.setAllowedActions("t", ["copy", "Paste"])
        }
        recorder.expectRefused(.invalidArgument, mentioning: ["\"xml\""]) {
            _ = try service.export("t", format: "xml")
        }
        recorder.expectRefused(.invalidArgument, mentioning: ["\"csv\""]) {
            _ = try service.importTable("t", format: "csv", data: "x\n", replace: true)
        }
    }

    /// NotPermitted names the action and the table, and leaves reads alone.
    @Test("NotPermitted names the action and the table, and leaves reads alone")
    func notPermitted() throws {
        let recorder = try Self.threeRows()
        let service = recorder.service
        try service.setAllowedActions("t", ["copy"])
        let guarded: [(String, () throws -> Void)] = [
            ("insert", { try service.insertRow("t", section: 0, row: 0, text: "x") }),
            ("insert", { try service.insertSection("t", at: 0, header: "", footer: "") }),
            ("insert", { _ = try service.importTable("t", format: "lines", data: "x\n", replace: false) }),
            ("paste", { try service.insertRow("t", section: 0, row: -1, text: "x", as: .paste) }),
            ("delete", { try service.deleteRow("t", section: 0, row: 0) }),
            ("delete", { try service.deleteSections("t", [0]) }),
            ("delete", { _ = try service.deleteWhere("t", op: "contains", operand: "", dryRun: true) }),
            ("cut", { _ = try service.cellForUse(of: "t", section: 0, row: 0, as: .cut) }),
            ("cut", { try service.deleteRow("t", section: 0, row: 0, as: .cut) }),
            ("move", { try service.moveRow("t", from: (0, 0), to: (0, 1)) }),
            ("move", { try service.moveSection("t", from: 0, to: 0) }),
            ("edit", { try service.setCell("t", section: 0, row: 0, text: "x") }),
            ("edit", { try service.setHeader("t", section: 0, text: "x") }),
            ("edit", { try service.setFooter("t", section: 0, text: "x") }),
        ]
        for (action, call) in guarded {
            recorder.expectRefused(
                .notPermitted, mentioning: ["\"\(action)\"", "\"t\"", "allowed: copy"], call)
        }
        // Reads are never guarded; copy is allowed.
        #expect(try service.cellForUse(of: "t", section: 0, row: 1).text == "b")
        #expect(try service.actions("t", section: 0, row: 0) == [.copy])
        try service.setAllowedActions("t", [])
        recorder.expectRefused(.notPermitted, mentioning: ["\"copy\"", "none"]) {
            _ = try service.sectionText(of: "t", section: 0, separator: ",")
        }
        #expect(try service.actions("t", section: 0, row: 0).isEmpty)
        #expect(try service.canPerform("t", action: "delete", section: 0, row: 0) == false)
        #expect(try recorder.texts("t") == [["a", "b", "c"]])
    }

    /// LimitExceeded names the size and the limit, for cells, titles, rows and sections.
    @Test("LimitExceeded names the size and the limit, for cells, titles, rows and sections")
    func limitExceeded() throws {
        let limits = Limits(maxCellBytes: 8, maxRowsPerTable: 4, maxSectionsPerTable: 2)
        let recorder = try Self.threeRows(limits: limits)
        let service = recorder.service
        try service.insertRow("t", section: 0, row: -1, text: "12345678")
        recorder.expectRefused(.limitExceeded, mentioning: ["9 bytes", "8 bytes"]) {
            try service.setCell("t", section: 0, row: 0, text: "123456789")
        }
        recorder.expectRefused(.limitExceeded, mentioning: ["10 bytes"]) {
            try service.setCell("t", section: 0, row: 0, text: "ééééé")
        }
        recorder.expectRefused(.limitExceeded, mentioning: ["header", "9 bytes"]) {
            try service.setHeader("t", section: 0, text: "123456789")
        }
        recorder.expectRefused(.limitExceeded, mentioning: ["footer", "9 bytes"]) {
            try service.insertSection("t", at: -1, header: "", footer: "123456789")
        }
        recorder.expectRefused(.limitExceeded, mentioning: ["5 rows", "limit is 4"]) {
            try service.insertRow("t", section: 0, row: 0, text: "x")
        }
        recorder.expectRefused(.limitExceeded, mentioning: ["5 rows", "limit is 4"]) {
            _ = try service.importTable("t", format: "lines", data: "x\n", replace: false)
        }
        recorder.expectRefused(.limitExceeded, mentioning: ["limit of 8 bytes"]) {
            _ = try service.sectionText(of: "t", section: 0, separator: ",")
        }
        try service.insertSection("t", at: -1, header: "", footer: "")
        recorder.expectRefused(.limitExceeded, mentioning: ["3 sections", "limit is 2"]) {
            try service.insertSection("t", at: -1, header: "", footer: "")
        }
        recorder.expectRefused(.limitExceeded, mentioning: ["3 sections", "limit is 2"]) {
            _ = try service.importTable("t", format: "lines", data: "## A\n", replace: false)
        }
        // Replacing frees the room the old content took.
        #expect(
            try service.importTable("t", format: "lines", data: "## A\nx\ny\n## B\nz\n", replace: true) == 3)
    }

    /// StorageFailure from the persistence reaches the caller, and memory stays as it was.
    @Test("StorageFailure from the persistence reaches the caller, and memory stays as it was")
    func storageFailure() throws {
        let recorder = try Self.threeRows()
        let service = recorder.service
        let calls: [() throws -> Void] = [
            { try service.insertRow("t", section: 0, row: 0, text: "x") },
            { try service.createTable("u") },
            { try service.moveRow("t", from: (0, 0), to: (0, 2)) },
            { _ = try service.deleteWhere("t", op: "contains", operand: "", dryRun: false) },
            { try service.setAllowedActions("t", ["copy"]) },
            { try service.renameTable("t", to: "u") },
            { try service.dropTable("t") },
        ]
        for call in calls {
            recorder.persistence.failNextCommit = CliptabError(.storageFailure, "the disk is full")
            recorder.expectRefused(.storageFailure, mentioning: ["the disk is full"], call)
            #expect(recorder.persistence.failNextCommit == nil)
        }
        // The next call succeeds, with the id the failed insert did not use.
        let counters = service.catalog.counters
        #expect(try service.insertRow("t", section: 0, row: 0, text: "x") == counters.nextRowID)
        #expect(try recorder.texts("t") == [["x", "a", "b", "c"]])
    }

    /// A persistence that fails with an error that is not a `CliptabError`.
    private final class BrokenPersistence: Persistence {
        struct Broken: Error, CustomStringConvertible {
            var description: String { "EIO while writing" }
        }

        func commit(_ writes: [StoreWrite]) throws { throw Broken() }
    }

    /// Any other error of the persistence becomes StorageFailure, with its description.
    @Test("Any other error of the persistence becomes StorageFailure, with its description")
    func foreignStorageError() throws {
        let service = TableService(
            catalog: Catalog(), persistence: BrokenPersistence(), announce: { _, _ in })
        #expect {
            try service.createTable("t")
        } throws: { error in
            let error = error as? CliptabError
            return error?.code == .storageFailure && error?.message.contains("EIO while writing") == true
        }
        #expect(service.catalog == Catalog())
    }
}
