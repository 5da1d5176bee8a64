// SPDX-License-Identifier: MIT
import CliptabContract
import DBus
import DaemonTestSupport
import Glibc
import Posix
import TestSupport
import Testing

/// Row names over the bus (API version 2): `SetRowName`, `FindRow`, `GetRowNames`,
/// `GetSecret`, the `NameInUse` error, the signal and revision of a naming, names in the
/// exchange formats, and names that survive a restart (a kill, not a clean exit).
@Suite(.serialized)
struct RowNameBusTests {
    /// Table "t": section 0 rows a b c, section 1 ("H") rows d e.
    func table(_ daemon: DaemonProcess) throws {
        try daemon.call("CreateTable", [s("t")])
        try daemon.call("InsertRows", [s("t"), i(0), i(0), strings(["a", "b", "c"])])
        #expect(try daemon.call("InsertSection", [s("t"), i(-1), s("H"), s("")]) == [i(1)])
        try daemon.call("InsertRows", [s("t"), i(1), i(0), strings(["d", "e"])])
    }

    @Test func namesAreSetFoundListedAndSurviveMovesAndRestarts() throws {
        let daemon = try DaemonProcess()
        try table(daemon)
        let listener = try daemon.connect()
        try listener.addMatch(CliptabBus.signalRule)
        let revision = try daemon.call("GetRevision", [s("t")])
        try daemon.call("SetRowName", [s("t"), i(1), i(1), s("sig")])
        try daemon.call("SetRowName", [s("t"), i(0), i(0), s("first")])
        let signals = try daemon.signals(on: listener)
        #expect(signals.map { $0.member ?? "" } == ["RowsChanged", "RowsChanged"])
        guard case .uint64(let before)? = revision.first else { throw FixtureError("no revision") }
        #expect(try daemon.call("GetRevision", [s("t")]) == [t(before + 2)])
        #expect(try daemon.call("FindRow", [s("t"), s("sig")]) == [i(1), i(1), t(5)])
        #expect(
            try daemon.call("GetRowNames", [s("t")])
                == [
                    .array(
                        elementSignature: "(ts)",
                        [.structure([t(1), s("first")]), .structure([t(5), s("sig")])])
                ])

        // Moves of the row and of its section, then a kill and a restart.
        try daemon.call("MoveRow", [s("t"), i(1), i(1), i(0), i(0)])
        try daemon.call("MoveSection", [s("t"), i(0), i(1)])
        try daemon.restart()
        #expect(try daemon.call("FindRow", [s("t"), s("sig")]) == [i(1), i(0), t(5)])
        #expect(try daemon.call("GetCell", [s("t"), i(1), i(0)]) == [s("e")])
        #expect(
            try daemon.call("GetRowNames", [s("t")])
                == [
                    .array(
                        elementSignature: "(ts)",
                        [.structure([t(5), s("sig")]), .structure([t(1), s("first")])])
                ])

        // The names of one window of rows (API version 3): section 1 is now e a b c.
        let names = { (section: Int32, offset: UInt32, limit: UInt32) in
            try daemon.call("GetRowNamesPage", [s("t"), i(section), u(offset), u(limit)])
        }
        #expect(try names(1, 1, 0) == [.array(elementSignature: "(ts)", [.structure([t(1), s("first")])])])
        #expect(try names(1, 0, 1) == [.array(elementSignature: "(ts)", [.structure([t(5), s("sig")])])])
        #expect(try names(0, 0, 0) == [.array(elementSignature: "(ts)", [])])
        #expect(
            daemon.errorName("GetRowNamesPage", [s("t"), i(2), u(0), u(0)])
                == CliptabBus.errorPrefix + "IndexOutOfRange")

        // Errors: their contract names.
        #expect(
            daemon.errorName("SetRowName", [s("t"), i(0), i(0), s("sig")]) == CliptabBus.errorPrefix
                + "NameInUse")
        #expect(
            daemon.errorName("SetRowName", [s("t"), i(0), i(0), s("0:1")]) == CliptabBus.errorPrefix
                + "InvalidName")
        #expect(daemon.errorName("FindRow", [s("t"), s("nope")]) == CliptabBus.errorPrefix + "NoSuchRow")
        #expect(daemon.errorName("FindRow", [s("nope"), s("sig")]) == CliptabBus.errorPrefix + "NoSuchTable")
        try daemon.call("SetAllowedActions", [s("t"), strings(["copy"])])
        #expect(
            daemon.errorName("SetRowName", [s("t"), i(0), i(0), s("x")]) == CliptabBus.errorPrefix
                + "NotPermitted")

        // Cut takes the name with the row.
        try daemon.call("SetAllowedActions", [s("t"), strings(ContractNames.actions)])
        try daemon.call("DeleteRow", [s("t"), i(1), i(0)])
        #expect(daemon.errorName("FindRow", [s("t"), s("sig")]) == CliptabBus.errorPrefix + "NoSuchRow")
    }

    /// Every way of deleting a row frees its name in the store too.
    ///
    /// After a restart (a kill) the name can be given to another row. A name left behind in the store once
    /// passed every test and then refused the new row with StorageFailure.
    @Test func deletedRowsFreeTheirNamesAcrossARestart() throws {
        let daemon = try DaemonProcess()
        try daemon.call(
            "ImportTable", [s("t"), s("lines"), s("## A\na1\na2\na3\nkept\n## B\nb1\n"), b(false)])
        try daemon.call("ImportTable", [s("u"), s("lines"), s("u1\nu2\n"), b(false)])
        for (index, name) in ["byRow", "byRows", "byWhere"].enumerated() {
            try daemon.call("SetRowName", [s("t"), i(0), i(Int32(index)), s(name)])
        }
        try daemon.call("SetRowName", [s("t"), i(1), i(0), s("bySection")])
        try daemon.call("SetRowName", [s("u"), i(0), i(0), s("byImport")])
        try daemon.call("DeleteRow", [s("t"), i(0), i(0)])
        try daemon.call("DeleteRows", [s("t"), ai([0]), ai([0])])
        try daemon.call("DeleteWhere", [s("t"), s("equals"), s("a3"), b(false)])
        try daemon.call("DeleteSections", [s("t"), ai([1])])
        try daemon.call("ImportTable", [s("u"), s("lines"), s("v1\n"), b(true)])
        try daemon.restart()
        #expect(try daemon.call("GetCell", [s("t"), i(0), i(0)]) == [s("kept")])
        for name in ["byRow", "byRows", "byWhere", "bySection"] {
            #expect(daemon.errorName("FindRow", [s("t"), s(name)]) == CliptabBus.errorPrefix + "NoSuchRow")
            #expect(daemon.errorName("SetRowName", [s("t"), i(0), i(0), s(name)]) == nil, "\(name)")
        }
        #expect(daemon.errorName("SetRowName", [s("u"), i(0), i(0), s("byImport")]) == nil)
        try daemon.restart()
        #expect(try daemon.call("FindRow", [s("t"), s("bySection")]).prefix(2) == [i(0), i(0)])
        #expect(try daemon.call("FindRow", [s("u"), s("byImport")]).prefix(2) == [i(0), i(0)])
    }

    @Test func exchangeFormatsCarryNamesAndSecretIsReadable() throws {
        let daemon = try DaemonProcess()
        try table(daemon)
        try daemon.call("SetRowName", [s("t"), i(1), i(1), s("sig")])
        let exported = try daemon.call("ExportTable", [s("t"), s("tsv")])
        guard case .string(let tsv)? = exported.first else { throw FixtureError("no export") }
        #expect(tsv.hasPrefix("section\theader\tfooter\trow\ttext\tname\n"))
        #expect(tsv.contains("1\tH\t\t1\te\tsig\n"))
        #expect(try daemon.call("ImportTable", [s("u"), s("tsv"), s(tsv), b(false)]) == [u(5)])
        #expect(try daemon.call("FindRow", [s("u"), s("sig")]).prefix(2) == [i(1), i(1)])
        #expect(
            daemon.errorName("ImportTable", [s("u"), s("tsv"), s(tsv), b(false)]) == CliptabBus.errorPrefix
                + "NameInUse")
        #expect(try daemon.call("GetSecret", [s("t")]) == [b(false)])
        try daemon.call("SetSecret", [s("t"), b(true)])
        #expect(try daemon.call("GetSecret", [s("t")]) == [b(true)])
        #expect(daemon.errorName("GetSecret", [s("nope")]) == CliptabBus.errorPrefix + "NoSuchTable")
    }
}
