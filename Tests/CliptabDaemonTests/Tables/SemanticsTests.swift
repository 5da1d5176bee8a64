// SPDX-License-Identifier: MIT
import CliptabClient
import CliptabContract
import DBus
import DaemonTestSupport
import Glibc
import Posix
import TestSupport
import Testing

/// The contract's semantics, called through the project's own D-Bus module: index rules,
/// batches, moves, `DeleteWhere`, `Locate`, import and export, allowed actions, the secret flag,
/// revisions and durability.
@Suite(.serialized)
struct SemanticsTests {
    /// A table "t" with sections A B C (headers) holding rows A1 A2 A3, B1, and none.
    func abc(_ daemon: DaemonProcess) throws {
        try daemon.call("CreateTable", [s("t")])
        try daemon.call("SetHeader", [s("t"), i(0), s("A")])
        #expect(try daemon.call("InsertSection", [s("t"), i(-1), s("B"), s("")]) == [i(1)])
        #expect(try daemon.call("InsertSection", [s("t"), i(2), s("C"), s("c footer")]) == [i(2)])
        try daemon.call("InsertRows", [s("t"), i(0), i(0), strings(["A1", "A2", "A3"])])
        try daemon.call("InsertRow", [s("t"), i(1), i(-1), s("B1")])
    }

    func headers(_ daemon: DaemonProcess, _ table: String = "t") throws -> [String] {
        try daemon.sections(table).map(\.header)
    }

    @Test func newTableHasOneEmptySectionAndRevisionZero() throws {
        let daemon = try DaemonProcess()
        try daemon.call("CreateTable", [s("new")])
        let snapshot = try daemon.snapshot("new")
        #expect(snapshot.sections == [SectionSnapshot(header: "", footer: "", rows: [])])
        #expect(snapshot.revision == 0)
        #expect(snapshot.allowedActions == ["copy", "cut", "paste", "delete", "move", "edit", "insert"])
    }

    @Test func negativeIndexesCountFromTheEnd() throws {
        let daemon = try DaemonProcess()
        try abc(daemon)
        #expect(try daemon.call("GetCell", [s("t"), i(0), i(-1)]) == [s("A3")])
        #expect(try daemon.call("GetCell", [s("t"), i(0), i(-3)]) == [s("A1")])
        #expect(try daemon.call("GetCell", [s("t"), i(-3), i(-2)]) == [s("A2")])
        #expect(try daemon.call("GetCell", [s("t"), i(-2), i(0)]) == [s("B1")])
        // The insertion position -1 appends; 0…count are valid.
        try daemon.call("InsertRow", [s("t"), i(0), i(3), s("A4")])
        try daemon.call("InsertRow", [s("t"), i(0), i(-1), s("A5")])
        try daemon.call("InsertRow", [s("t"), i(2), i(0), s("C1")])
        #expect(try daemon.texts("t") == [["A1", "A2", "A3", "A4", "A5"], ["B1"], ["C1"]])
        #expect(try daemon.call("InsertSection", [s("t"), i(3), s("D"), s("")]) == [i(3)])
        #expect(try daemon.call("InsertSection", [s("t"), i(0), s("Z"), s("")]) == [i(0)])
        #expect(try headers(daemon) == ["Z", "A", "B", "C", "D"])
    }

    @Test func outOfRangeNamesTheValidRange() throws {
        let daemon = try DaemonProcess()
        try abc(daemon)
        let cases: [(String, [BusValue], String)] = [
            ("GetCell", [s("t"), i(0), i(3)], "row index 3 is out of range (valid: 0...2 or -3...-1)"),
            ("GetCell", [s("t"), i(0), i(-4)], "row index -4 is out of range (valid: 0...2 or -3...-1)"),
            (
                "GetCell", [s("t"), i(2), i(0)],
                "row index 0 is out of range (valid: none: there are no rows)"
            ),
            ("GetCell", [s("t"), i(3), i(0)], "section index 3 is out of range (valid: 0...2 or -3...-1)"),
            (
                "InsertRow", [s("t"), i(0), i(4), s("x")],
                "row index 4 is out of range (valid: 0...3 or -1 to append)"
            ),
            (
                "InsertRow", [s("t"), i(0), i(-2), s("x")],
                "row index -2 is out of range (valid: 0...3 or -1 to append)"
            ),
            (
                "InsertSection", [s("t"), i(4), s(""), s("")],
                "section index 4 is out of range (valid: 0...3 or -1 to append)"
            ),
        ]
        for (member, arguments, message) in cases {
            let failure = daemon.failure(member, arguments)
            #expect(failure?.name == CliptabBus.errorPrefix + "IndexOutOfRange", "\(member) \(arguments)")
            #expect(failure?.message == message, "\(member) \(arguments)")
        }
        #expect(try daemon.revision("t") == 5)
    }

    @Test func batchesUseIndexesFromBeforeTheBatch() throws {
        let daemon = try DaemonProcess()
        try abc(daemon)
        try daemon.call("InsertSection", [s("t"), i(-1), s("D"), s("")])
        // Sections A B C D: delete 0 and 2 (by their old indexes) leaves B D.
        try daemon.call("DeleteSections", [s("t"), ai([2, 0])])
        #expect(try headers(daemon) == ["B", "D"])
        try daemon.call("InsertRows", [s("t"), i(1), i(0), strings(["0", "1", "2", "3", "4"])])
        try daemon.call("DeleteRows", [s("t"), ai([1, 1, 0, 1]), ai([3, 1, 0, -1])])
        #expect(try daemon.texts("t") == [[], ["0", "2"]])

        let revision = try daemon.revision("t")
        let before = try daemon.snapshot("t")
        let refused: [(String, [BusValue], String)] = [
            ("DeleteSections", [s("t"), ai([0, -2])], "InvalidArgument"),
            ("DeleteSections", [s("t"), ai([1, 2])], "IndexOutOfRange"),
            ("DeleteRows", [s("t"), ai([1, 1]), ai([0, -2])], "InvalidArgument"),
            ("DeleteRows", [s("t"), ai([1, 1]), ai([0, 2])], "IndexOutOfRange"),
            ("DeleteRows", [s("t"), ai([1, 0]), ai([0, 0])], "IndexOutOfRange"),
            ("DeleteRows", [s("t"), ai([1, 1]), ai([0])], "InvalidArgument"),
        ]
        for (member, arguments, name) in refused {
            #expect(
                daemon.errorName(member, arguments) == CliptabBus.errorPrefix + name, "\(member) \(arguments)"
            )
        }
        #expect(try daemon.snapshot("t") == before)
        #expect(try daemon.revision("t") == revision)
        // An empty batch is a successful call: it changes the revision and nothing else.
        try daemon.call("DeleteRows", [s("t"), ai([]), ai([])])
        try daemon.call("DeleteSections", [s("t"), ai([])])
        #expect(try daemon.revision("t") == revision + 2)
        #expect(try daemon.texts("t") == [[], ["0", "2"]])
    }

    @Test func movesFollowTheContractsExamples() throws {
        let daemon = try DaemonProcess()
        try abc(daemon)
        try daemon.call("MoveSection", [s("t"), i(0), i(2)])
        #expect(try headers(daemon) == ["B", "C", "A"])
        try daemon.call("MoveSection", [s("t"), i(2), i(0)])
        try daemon.call("MoveSection", [s("t"), i(1), i(2)])
        #expect(try headers(daemon) == ["A", "C", "B"])
        try daemon.call("MoveSection", [s("t"), i(-1), i(-2)])
        #expect(try headers(daemon) == ["A", "B", "C"])
        #expect(
            daemon.errorName("MoveSection", [s("t"), i(0), i(3)]) == CliptabBus.errorPrefix
                + "IndexOutOfRange")

        let ids = try daemon.rows("t", 0).map(\.id)
        try daemon.call("MoveRow", [s("t"), i(0), i(0), i(0), i(1)])
        #expect(try daemon.texts("t").first == ["A2", "A1", "A3"])
        try daemon.call("MoveRow", [s("t"), i(0), i(1), i(1), i(0)])
        #expect(try daemon.texts("t") == [["A2", "A3"], ["A1", "B1"], []])
        // The destination row may be the count after the removal: append.
        try daemon.call("MoveRow", [s("t"), i(0), i(0), i(0), i(1)])
        #expect(try daemon.texts("t").first == ["A3", "A2"])
        try daemon.call("MoveRow", [s("t"), i(1), i(0), i(2), i(0)])
        try daemon.call("MoveRow", [s("t"), i(0), i(-1), i(2), i(1)])
        #expect(try daemon.texts("t") == [["A3"], ["B1"], ["A1", "A2"]])
        #expect(
            daemon.errorName("MoveRow", [s("t"), i(2), i(0), i(2), i(2)]) == CliptabBus.errorPrefix
                + "IndexOutOfRange")
        #expect(
            daemon.errorName("MoveRow", [s("t"), i(2), i(0), i(1), i(3)]) == CliptabBus.errorPrefix
                + "IndexOutOfRange")
        // Ids are unchanged by moves.
        #expect(try Set(daemon.rows("t", 2).map(\.id) + daemon.rows("t", 0).map(\.id)) == Set(ids))
        // A move onto its own place still counts as a change.
        let revision = try daemon.revision("t")
        try daemon.call("MoveRow", [s("t"), i(2), i(0), i(2), i(0)])
        try daemon.call("MoveSection", [s("t"), i(1), i(1)])
        #expect(try daemon.revision("t") == revision + 2)
        #expect(try daemon.texts("t") == [["A3"], ["B1"], ["A1", "A2"]])
    }

    @Test func deleteWhereOperators() throws {
        let daemon = try DaemonProcess()
        let data = """
            apple
            pineapple
            Apple pie
            ## numbers
            2
            2.5
            -3
            10
            +7
            2.
            .5
            1e3
            0x10

            """
        try daemon.call("ImportTable", [s("w"), s("lines"), s(data), b(false)])
        func paths(_ op: String, _ operand: String) throws -> [[Int32]] {
            try decodePaths(daemon.call("DeleteWhere", [s("w"), s(op), s(operand), b(true)]))
        }
        #expect(try paths("equals", "apple") == [[0, 0]])
        #expect(try paths("contains", "apple") == [[0, 0], [0, 1]])
        #expect(try paths("prefix", "Apple") == [[0, 2]])
        #expect(try paths("suffix", "pie") == [[0, 2]])
        #expect(try paths("matches", "^[aA]pple") == [[0, 0], [0, 2]])
        #expect(try paths("matches", "e$") == [[0, 0], [0, 1], [0, 2]])
        #expect(try paths("matches", "^-?[0-9]+$") == [[1, 0], [1, 2], [1, 3]])
        #expect(try paths(">", "2") == [[1, 1], [1, 3], [1, 4]])
        #expect(try paths(">=", "2") == [[1, 0], [1, 1], [1, 3], [1, 4]])
        #expect(try paths("<", "0") == [[1, 2]])
        #expect(try paths("<=", "2.0") == [[1, 0], [1, 2]])
        #expect(try paths("==", "2.50") == [[1, 1]])
        #expect(try paths("!=", "2") == [[1, 1], [1, 2], [1, 3], [1, 4]])
        #expect(
            try paths("contains", "") == (0..<Int32(3)).map { [0, $0] } + (0..<Int32(9)).map { [1, $0] })
        // Bad operators, operands and patterns.
        for (op, operand) in [
            ("like", "x"), (">", "two"), (">", ""), ("matches", "("), ("matches", "a{2,1}"),
        ] {
            #expect(
                daemon.errorName("DeleteWhere", [s("w"), s(op), s(operand), b(false)])
                    == CliptabBus.errorPrefix + "InvalidArgument", "\(op) \(operand)")
        }
        // Dry runs and refusals did not count; the real run returns the paths from before.
        #expect(try daemon.revision("w") == 1)
        let deleted = try decodePaths(daemon.call("DeleteWhere", [s("w"), s(">"), s("2"), b(false)]))
        #expect(deleted == [[1, 1], [1, 3], [1, 4]])
        #expect(try daemon.texts("w").dropFirst().first == ["2", "-3", "2.", ".5", "1e3", "0x10"])
        // No match is still a successful call that changes the revision.
        #expect(
            try daemon.call("DeleteWhere", [s("w"), s("equals"), s("none"), b(false)]) == [
                .array(elementSignature: "(ii)", [])
            ])
        #expect(try daemon.revision("w") == 3)
    }

    @Test func locateFindsRowsAfterChangesAndRestarts() throws {
        let daemon = try DaemonProcess()
        try abc(daemon)
        let a2 = try #require(try daemon.rows("t", 0).dropFirst().first).id
        #expect(try daemon.call("Locate", [t(a2)]) == [s("t"), i(0), i(1)])
        try daemon.call("MoveRow", [s("t"), i(0), i(1), i(1), i(0)])
        try daemon.call("MoveSection", [s("t"), i(1), i(2)])
        try daemon.call("RenameTable", [s("t"), s("renamed")])
        try daemon.call("SetCell", [s("renamed"), i(2), i(0), s("edited")])
        #expect(try daemon.call("Locate", [t(a2)]) == [s("renamed"), i(2), i(0)])
        try daemon.restart()
        #expect(try daemon.call("Locate", [t(a2)]) == [s("renamed"), i(2), i(0)])
        #expect(try daemon.call("GetCell", [s("renamed"), i(2), i(0)]) == [s("edited")])
        // Ids are never reused, not even the highest one after a restart.
        let all = try (0..<3).flatMap { try daemon.rows("renamed", $0).map(\.id) }
        let highest = try #require(all.max())
        let (section, row) = try locate(daemon, highest)
        try daemon.call("DeleteRow", [s("renamed"), i(section), i(row)])
        #expect(daemon.errorName("Locate", [t(highest)]) == CliptabBus.errorPrefix + "NoSuchRow")
        try daemon.restart()
        let fresh = try daemon.call("InsertRow", [s("renamed"), i(0), i(0), s("new")])
        guard case .uint64(let id)? = fresh.first else { throw FixtureError("InsertRow gave \(fresh)") }
        #expect(id > highest)
        try daemon.call("DropTable", [s("renamed")])
        #expect(daemon.errorName("Locate", [t(id)]) == CliptabBus.errorPrefix + "NoSuchRow")
        #expect(daemon.errorName("Locate", [t(0)]) == CliptabBus.errorPrefix + "NoSuchRow")
        #expect(daemon.errorName("Locate", [t(UInt64.max)]) == CliptabBus.errorPrefix + "NoSuchRow")
    }

    func locate(_ daemon: DaemonProcess, _ id: UInt64) throws -> (Int32, Int32) {
        let reply = try daemon.call("Locate", [t(id)])
        guard reply.count == 3, case .int32(let section) = reply[1], case .int32(let row) = reply[2] else {
            throw FixtureError("Locate gave \(reply)")
        }
        return (section, row)
    }

    @Test func tableNames() throws {
        let daemon = try DaemonProcess()
        let names = ["b", "a", "B", "é", "Z", "aa", "a b", "~", "日本", String(repeating: "n", count: 255)]
        for name in names { try daemon.call("CreateTable", [s(name)]) }
        let sorted = names.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        #expect(try daemon.tableNames() == sorted)
        let invalid = [
            "", String(repeating: "n", count: 256), "a/b", "/", "tab\t", "new\nline", "\u{7F}", "\u{85}",
            "\u{1B}[0m",
            String(repeating: "é", count: 128),
        ]
        for name in invalid {
            #expect(
                daemon.errorName("CreateTable", [s(name)]) == CliptabBus.errorPrefix + "InvalidName",
                "\(name.debugDescription)")
            #expect(
                daemon.errorName("RenameTable", [s("a"), s(name)]) == CliptabBus.errorPrefix + "InvalidName")
            #expect(
                daemon.errorName("ImportTable", [s(name), s("lines"), s("x"), b(false)]) == CliptabBus
                    .errorPrefix
                    + "InvalidName")
        }
        #expect(daemon.errorName("RenameTable", [s("a"), s("b")]) == CliptabBus.errorPrefix + "TableExists")
        #expect(
            daemon.errorName("RenameTable", [s("missing"), s("c")]) == CliptabBus.errorPrefix + "NoSuchTable")
        #expect(daemon.errorName("DropTable", [s("missing")]) == CliptabBus.errorPrefix + "NoSuchTable")
        try daemon.call("RenameTable", [s("a"), s("a")])
        try daemon.call("RenameTable", [s("a"), s("zz")])
        try daemon.call("DropTable", [s("b")])
        #expect(
            try daemon.tableNames()
                == (sorted.filter { $0 != "a" && $0 != "b" } + ["zz"]).sorted {
                    Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8))
                })
    }

    @Test func sectionsRowsPagingAndFindSection() throws {
        let daemon = try DaemonProcess()
        try abc(daemon)
        try daemon.call("InsertSection", [s("t"), i(-1), s("B"), s("")])
        #expect(try daemon.call("FindSection", [s("t"), s("B")]) == [i(1)])
        #expect(try daemon.call("FindSection", [s("t"), s("C")]) == [i(2)])
        #expect(
            daemon.errorName("FindSection", [s("t"), s("b")]) == CliptabBus.errorPrefix + "NoSuchSection")
        #expect(daemon.errorName("FindSection", [s("t"), s("")]) == CliptabBus.errorPrefix + "NoSuchSection")
        func page(_ offset: UInt32, _ limit: UInt32) throws -> [String] {
            try decodeRows(daemon.call("GetRows", [s("t"), i(0), u(offset), u(limit)])).map(\.text)
        }
        #expect(try page(0, 0) == ["A1", "A2", "A3"])
        #expect(try page(1, 0) == ["A2", "A3"])
        #expect(try page(1, 1) == ["A2"])
        #expect(try page(2, 5) == ["A3"])
        #expect(try page(3, 0) == [])
        #expect(try page(UInt32.max, UInt32.max) == [])
        #expect(try page(0, UInt32.max) == ["A1", "A2", "A3"])
        #expect(
            daemon.errorName("GetRows", [s("t"), i(4), u(0), u(0)]) == CliptabBus.errorPrefix
                + "IndexOutOfRange")
        // Every section can be deleted; the table then has none.
        try daemon.call("DeleteSections", [s("t"), ai([0, 1, 2, 3])])
        #expect(try daemon.sections("t").isEmpty)
        #expect(
            daemon.errorName("InsertRow", [s("t"), i(0), i(0), s("x")]) == CliptabBus.errorPrefix
                + "IndexOutOfRange")
        #expect(try daemon.call("InsertSection", [s("t"), i(-1), s(""), s("")]) == [i(0)])
        #expect(try daemon.call("ExportTable", [s("t"), s("lines")]) == [s("##\n")])
    }

    @Test func propertiesOfTheObject() throws {
        let daemon = try DaemonProcess()
        func get(_ name: String) throws -> BusValue? {
            let message = try CliptabClient.message(
                "Get", [s(CliptabBus.interface), s(name)], interface: "org.freedesktop.DBus.Properties")
            return try daemon.client.call(message, timeoutMilliseconds: 10_000).readValues().first
        }
        #expect(try get("ApiVersion") == .variant(u(4)))
        guard case .variant(.string(let version))? = try get("Version") else {
            throw FixtureError("no Version")
        }
        #expect(!version.isEmpty)
        try daemon.call("CreateTable", [s("x")])
        try daemon.call("CreateTable", [s("a")])
        #expect(try get("Tables") == .variant(strings(["a", "x"])))
    }
}
