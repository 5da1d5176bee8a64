// SPDX-License-Identifier: MIT
import CliptabCore
import Testing

/// The worked examples of the seed recipes 4.7 (moving cells and sections) and 4.8
/// (deleting cells and sections), as exact tables before and after.
@Suite("Seed worked examples")
struct SeedExampleTests {
    /// The cells of section `number` (1-based, as the recipe names them).
    static func cells(_ number: Int) -> [String] { (1...3).map { "Section \(number) Cell \($0)" } }

    /// Three sections of three cells, "Section 1 Cell 1" … "Section 3 Cell 3".
    static func threeByThree() throws -> ServiceRecorder {
        let recorder = ServiceRecorder()
        let service = recorder.service
        try service.createTable("cells")
        try service.insertSection("cells", at: -1, header: "", footer: "")
        try service.insertSection("cells", at: -1, header: "", footer: "")
        for number in 1...3 {
            try service.insertRows("cells", section: Int32(number - 1), row: -1, texts: cells(number))
        }
        try #require(try recorder.texts("cells") == [cells(1), cells(2), cells(3)])
        try #require(try recorder.ids("cells").map(\.count) == [3, 3, 3])
        _ = recorder.takeEvents()
        return recorder
    }

    /// "Even Numbers" 0 2 4 6 and "Odd Numbers" 1 3 5 7.
    static func numbers() throws -> ServiceRecorder {
        let recorder = ServiceRecorder()
        let service = recorder.service
        try service.createTable("numbers")
        try service.setHeader("numbers", section: 0, text: "Even Numbers")
        try service.insertRows("numbers", section: 0, row: -1, texts: ["0", "2", "4", "6"])
        #expect(try service.insertSection("numbers", at: -1, header: "Odd Numbers", footer: "") == 1)
        try service.insertRows("numbers", section: 1, row: -1, texts: ["1", "3", "5", "7"])
        #expect(try recorder.headers("numbers") == ["Even Numbers", "Odd Numbers"])
        #expect(try recorder.texts("numbers") == [["0", "2", "4", "6"], ["1", "3", "5", "7"]])
        _ = recorder.takeEvents()
        return recorder
    }

    /// moveSection(0 → 2) turns A B C into B C A.
    @Test("moveSection(0 → 2) turns A B C into B C A")
    func moveFirstSectionToLast() throws {
        let recorder = try Self.threeByThree()
        let ids = try recorder.ids("cells")
        let revision = try recorder.service.revision(of: "cells")
        try recorder.service.moveSection("cells", from: 0, to: 2)
        #expect(try recorder.texts("cells") == [Self.cells(2), Self.cells(3), Self.cells(1)])
        #expect(try recorder.ids("cells") == [ids[1], ids[2], ids[0]])
        #expect(
            recorder.takeEvents() == [.sectionMoved(table: "cells", revision: revision + 1, from: 0, to: 2)])
    }

    /// moveSection(1 → 2) turns A B C into A C B.
    @Test("moveSection(1 → 2) turns A B C into A C B")
    func moveMiddleSectionToLast() throws {
        let recorder = try Self.threeByThree()
        let ids = try recorder.ids("cells")
        try recorder.service.moveSection("cells", from: 1, to: 2)
        #expect(try recorder.texts("cells") == [Self.cells(1), Self.cells(3), Self.cells(2)])
        #expect(try recorder.ids("cells") == [ids[0], ids[2], ids[1]])
    }

    /// moveSection(-1 → 0) names the last section from the end.
    @Test("moveSection(-1 → 0) names the last section from the end")
    func moveLastSectionFirst() throws {
        let recorder = try Self.threeByThree()
        try recorder.service.moveSection("cells", from: -1, to: 0)
        #expect(try recorder.texts("cells") == [Self.cells(3), Self.cells(1), Self.cells(2)])
        #expect(recorder.takeEvents().count == 1)
    }

    /// moveRow(0,0 → 0,1) turns [C1 C2 C3] into [C2 C1 C3]; the row keeps its id.
    @Test("moveRow(0,0 → 0,1) turns [C1 C2 C3] into [C2 C1 C3]; the row keeps its id")
    func moveCellOneToCellTwo() throws {
        let recorder = try Self.threeByThree()
        let service = recorder.service
        let ids = try recorder.ids("cells")
        let revision = try service.revision(of: "cells")
        try service.moveRow("cells", from: (0, 0), to: (0, 1))
        let first = Self.cells(1)
        #expect(
            try recorder.texts("cells") == [[first[1], first[0], first[2]], Self.cells(2), Self.cells(3)])
        #expect(try recorder.ids("cells").first == [ids[0][1], ids[0][0], ids[0][2]])
        let found = try service.locate(ids[0][0])
        #expect(found.table == "cells" && found.path == IndexPath(section: 0, row: 1))
        #expect(
            recorder.takeEvents() == [
                .rowMoved(
                    table: "cells", revision: revision + 1, from: IndexPath(section: 0, row: 0),
                    to: IndexPath(section: 0, row: 1))
            ])
    }

    /// moveRow within a section: the destination counts after the removal.
    @Test("moveRow within a section: the destination counts after the removal")
    func moveCellToTheEnd() throws {
        let recorder = try Self.threeByThree()
        let first = Self.cells(1)
        try recorder.service.moveRow("cells", from: (0, 0), to: (0, 2))
        #expect(try recorder.texts("cells").first == [first[1], first[2], first[0]])
        recorder.expectRefused(.indexOutOfRange, mentioning: ["3", "0...2 or -1 to append"]) {
            try recorder.service.moveRow("cells", from: (0, 0), to: (0, 3))
        }
        try recorder.service.moveRow("cells", from: (0, 0), to: (0, -1))
        #expect(try recorder.texts("cells").first == [first[2], first[0], first[1]])
    }

    /// moveRow(0,1 → 1,0) makes cell 2 of section 1 the first cell of section 2.
    @Test("moveRow(0,1 → 1,0) makes cell 2 of section 1 the first cell of section 2")
    func moveCellAcrossSections() throws {
        let recorder = try Self.threeByThree()
        let service = recorder.service
        let ids = try recorder.ids("cells")
        let revision = try service.revision(of: "cells")
        try service.moveRow("cells", from: (0, 1), to: (1, 0))
        let first = Self.cells(1)
        #expect(
            try recorder.texts("cells") == [
                [first[0], first[2]], [first[1]] + Self.cells(2), Self.cells(3),
            ])
        #expect(try recorder.ids("cells").dropFirst().first == [ids[0][1]] + ids[1])
        let found = try service.locate(ids[0][1])
        #expect(found.path == IndexPath(section: 1, row: 0))
        #expect(
            recorder.takeEvents() == [
                .rowMoved(
                    table: "cells", revision: revision + 1, from: IndexPath(section: 0, row: 1),
                    to: IndexPath(section: 1, row: 0))
            ])
    }

    /// findSection("Odd Numbers"), then deleteSections of it, leaves the even numbers.
    @Test("findSection(\"Odd Numbers\"), then deleteSections of it, leaves the even numbers")
    func deleteOddNumbersSection() throws {
        let recorder = try Self.numbers()
        let service = recorder.service
        let oddIDs = try #require(try recorder.ids("numbers").dropFirst().first)
        let revision = try service.revision(of: "numbers")
        let index = try service.findSection("numbers", header: "Odd Numbers")
        #expect(index == 1)
        try service.deleteSections("numbers", [index])
        #expect(try recorder.headers("numbers") == ["Even Numbers"])
        #expect(try recorder.texts("numbers") == [["0", "2", "4", "6"]])
        #expect(try service.revision(of: "numbers") == revision + 1)
        #expect(
            recorder.takeEvents() == [
                .sectionsDeleted(table: "numbers", revision: revision + 1, sections: [1])
            ])
        recorder.expectRefused(.noSuchSection, mentioning: ["Odd Numbers"]) {
            _ = try service.findSection("numbers", header: "Odd Numbers")
        }
        recorder.expectRefused(.noSuchRow, mentioning: ["\(oddIDs[1])"]) { _ = try service.locate(oddIDs[1]) }
    }

    /// deleteWhere(">", "2") removes every number above 2 in every section.
    @Test("deleteWhere(\">\", \"2\") removes every number above 2 in every section")
    func deleteNumbersGreaterThanTwo() throws {
        let recorder = try Self.numbers()
        let service = recorder.service
        let ids = try recorder.ids("numbers")
        let revision = try service.revision(of: "numbers")
        let commits = recorder.persistence.committed.count
        let expected = [(0, 2), (0, 3), (1, 1), (1, 2), (1, 3)].map { IndexPath(section: $0, row: $1) }

        // A dry run answers the same paths and changes nothing.
        #expect(try service.deleteWhere("numbers", op: ">", operand: "2", dryRun: true) == expected)
        #expect(try recorder.texts("numbers") == [["0", "2", "4", "6"], ["1", "3", "5", "7"]])
        #expect(try service.revision(of: "numbers") == revision)
        #expect(recorder.persistence.committed.count == commits)
        #expect(recorder.takeEvents().isEmpty)

        #expect(try service.deleteWhere("numbers", op: ">", operand: "2", dryRun: false) == expected)
        #expect(try recorder.texts("numbers") == [["0", "2"], ["1"]])
        #expect(try recorder.ids("numbers") == [[ids[0][0], ids[0][1]], [ids[1][0]]])
        #expect(try service.revision(of: "numbers") == revision + 1)
        #expect(
            recorder.takeEvents() == [.rowsDeleted(table: "numbers", revision: revision + 1, paths: expected)]
        )
    }
}
