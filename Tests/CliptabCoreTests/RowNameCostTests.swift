import Testing

// SPDX-License-Identifier: MIT
@testable import CliptabCore

/// What listing row names costs: `GetRowNames` once walked the sections for each name
/// (400,000 names in the last of 10,000 sections took 3.8 s while other clients waited),
/// and `GetRowNamesPage` costs its window only.
@Suite("Row name cost")
struct RowNameCostTests {
    /// A table of `sections` empty sections and a last one of `named` named rows.
    static func service(sections: Int, named: Int) -> TableService {
        var rows: [Row] = []
        var names = RowNameIndex()
        let lastID = UInt64(sections)
        for index in 0..<named {
            let id = UInt64(index + 1)
            rows.append(Row(id: id, key: Int64(index) * 16, text: "r\(index)"))
            names.setName(
                "n\(index)", at: RowNameIndex.Place(rowID: id, sectionID: lastID, key: Int64(index) * 16))
        }
        var sectionList = (1..<sections).map {
            Section(id: UInt64($0), key: Int64($0), header: "", footer: "")
        }
        sectionList.append(
            Section(id: lastID, key: Int64(sections), header: "", footer: "", rows: RowList(rows)))
        let record = TableRecord(id: 1, name: "t", revision: 1, allowedActions: .all, isSecret: false)
        let catalog = Catalog(
            tables: [Table(record: record, sections: sectionList, names: names)],
            counters: Counters(nextRowID: UInt64(named + 1), nextSectionID: lastID + 1, nextTableID: 2))
        return TableService(catalog: catalog, persistence: MemoryPersistence(), announce: { _, _ in })
    }

    @Test("GetRowNames is linear in sections + names, in table order")
    func listingIsLinear() throws {
        let sections = 2_000
        let named = 20_000
        let service = Self.service(sections: sections, named: named)
        let (names, steps) = try service.countedRowNames(of: "t")
        #expect(names.count == named)
        #expect(names.first?.name == "n0" && names.last?.name == "n\(named - 1)")
        #expect(names.map(\.id) == (1...UInt64(named)).map { $0 })
        // Walking the sections per name made it about sections × names (40,000,000).
        #expect(steps <= sections + named, "\(steps) steps")
    }

    @Test("GetRowNamesPage answers the named rows of the window GetRows answers")
    func pageIsTheWindow() throws {
        let service = Self.service(sections: 3, named: 10)
        let page = try service.rowNames(of: "t", section: 2, offset: 3, limit: 4)
        #expect(page.map(\.name) == ["n3", "n4", "n5", "n6"])
        #expect(try service.rowNames(of: "t", section: 2, offset: 8, limit: 0).map(\.name) == ["n8", "n9"])
        #expect(try service.rowNames(of: "t", section: 2, offset: 10, limit: 5).isEmpty)
        #expect(try service.rowNames(of: "t", section: 0, offset: 0, limit: 0).isEmpty)
        #expect(try service.rowNames(of: "t", section: -1, offset: 0, limit: 1).map(\.id) == [1])
        #expect(throws: CliptabError.self) { try service.rowNames(of: "t", section: 3, offset: 0, limit: 0) }
        #expect(throws: CliptabError.self) { try service.rowNames(of: "u", section: 0, offset: 0, limit: 0) }
    }
}
