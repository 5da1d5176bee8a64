// SPDX-License-Identifier: MIT
import CliptabClient
import CliptabContract
import DBus
import DaemonTestSupport
import Glibc
import Posix
import TestSupport
import Testing

/// The contract's semantics of import and export, allowed actions, the secret flag,
/// revisions and durability.
extension SemanticsTests {
    @Test func exportFormatsAndImportRoundTrips() throws {
        let daemon = try DaemonProcess()
        try abc(daemon)
        try daemon.call("SetCell", [s("t"), i(0), i(1), s("tab\there, back\\slash")])
        let ids = try daemon.rows("t", 0).map(\.id) + daemon.rows("t", 1).map(\.id)
        #expect(
            try daemon.call("ExportTable", [s("t"), s("lines")]) == [
                s("## A\nA1\ntab\there, back\\slash\nA3\n## B\nB1\n## C\n")
            ])
        #expect(
            try daemon.call("ExportTable", [s("t"), s("tsv")]) == [
                s(
                    "section\theader\tfooter\trow\ttext\n0\tA\t\t0\tA1\n0\tA\t\t1\ttab\\there, back\\\\slash\n"
                        + "0\tA\t\t2\tA3\n1\tB\t\t0\tB1\n2\tC\tc footer\t\t\n")
            ])
        guard case .string(let json)? = try daemon.call("ExportTable", [s("t"), s("json")]).first else {
            throw FixtureError("no json")
        }
        for id in ids { #expect(json.contains("\"id\": \(id)") || json.contains("\"id\":\(id)")) }

        // Each format imports back to the same table (json and tsv keep footers, lines does not).
        for format in ["json", "tsv", "lines"] {
            guard case .string(let data)? = try daemon.call("ExportTable", [s("t"), s(format)]).first else {
                throw FixtureError("no \(format)")
            }
            let name = "copy-\(format)"
            #expect(try daemon.call("ImportTable", [s(name), s(format), s(data), b(false)]) == [u(4)])
            #expect(try daemon.texts(name) == daemon.texts("t"))
            #expect(try headers(daemon, name) == ["A", "B", "C"])
            #expect(try daemon.sections(name).map(\.footer) == ["", "", format == "lines" ? "" : "c footer"])
            #expect(try daemon.revision(name) == 1)
            // New ids: import ignores the ids of the data.
            #expect(try Set(daemon.rows(name, 0).map(\.id)).isDisjoint(with: ids))
        }
        // Without replace the sections are appended; with replace the old content goes.
        try daemon.call("ImportTable", [s("copy-lines"), s("lines"), s("x\n## Y\ny\n"), b(false)])
        #expect(
            try daemon.texts("copy-lines") == [
                ["A1", "tab\there, back\\slash", "A3"], ["B1"], [], ["x"], ["y"],
            ])
        #expect(
            try daemon.call("ImportTable", [s("copy-lines"), s("lines"), s("x\n## Y\ny\n"), b(true)]) == [
                u(2)
            ])
        #expect(try daemon.texts("copy-lines") == [["x"], ["y"]])
        #expect(try daemon.revision("copy-lines") == 3)
    }

    @Test func importIsAtomicAndExportRefusesWhatItCannotExpress() throws {
        let daemon = try DaemonProcess()
        try abc(daemon)
        let before = try daemon.snapshot("t")
        let bad: [(String, String)] = [
            ("json", "{\"name\": \"t\", \"sections\": [{\"header\": 1}]}"), ("json", "[1, 2"),
            ("tsv", "not the header line\n"), ("tsv", "section\theader\tfooter\trow\ttext\nx\ty\n"),
            ("yaml", "a: b"),
        ]
        for (format, data) in bad {
            for replace in [false, true] {
                let failure = daemon.failure("ImportTable", [s("t"), s(format), s(data), b(replace)])
                #expect(failure?.name == CliptabBus.errorPrefix + "InvalidArgument", "\(format) \(data)")
                let missing = daemon.failure("ImportTable", [s("missing"), s(format), s(data), b(replace)])
                #expect(missing?.name == CliptabBus.errorPrefix + "InvalidArgument", "\(format) \(data)")
            }
        }
        let big = String(repeating: "x", count: (16 << 20) + 1)
        #expect(
            daemon.errorName("ImportTable", [s("t"), s("lines"), s("ok\n" + big + "\n"), b(true)])
                == CliptabBus.errorPrefix + "LimitExceeded")
        #expect(try daemon.snapshot("t") == before)
        #expect(try daemon.tableNames() == ["t"])
        #expect(
            daemon.errorName("ImportTable", [s("a/b"), s("lines"), s("x\n"), b(false)]) == CliptabBus
                .errorPrefix
                + "InvalidName")

        try daemon.call("InsertRow", [s("t"), i(2), i(0), s("two\nlines")])
        let refused = daemon.failure("ExportTable", [s("t"), s("lines")])
        #expect(refused?.name == CliptabBus.errorPrefix + "InvalidArgument")
        #expect(refused?.message.contains("2") == true)
        try daemon.call("SetCell", [s("t"), i(2), i(0), s("## looks like a header")])
        #expect(
            daemon.errorName("ExportTable", [s("t"), s("lines")]) == CliptabBus.errorPrefix
                + "InvalidArgument")
        #expect(
            daemon.errorName("ExportTable", [s("t"), s("csv")]) == CliptabBus.errorPrefix + "InvalidArgument")
        #expect(
            daemon.errorName("ExportTable", [s("nope"), s("json")]) == CliptabBus.errorPrefix + "NoSuchTable")
    }

    /// Every guarded method, with arguments that would succeed on the `abc` table.
    static let guardedCalls: [(action: String, member: String, arguments: [BusValue])] = [
        ("copy", "Copy", [s("t"), i(0), i(0)]),
        ("copy", "CopySection", [s("t"), i(0), s(",")]),
        ("copy", "PasteToFocus", [s("t"), i(0), i(0), u(0)]),
        ("cut", "Cut", [s("t"), i(0), i(0)]),
        ("paste", "Paste", [s("t"), i(0), i(0)]),
        ("delete", "DeleteRow", [s("t"), i(0), i(0)]),
        ("delete", "DeleteRows", [s("t"), ai([0]), ai([0])]),
        ("delete", "DeleteWhere", [s("t"), s("equals"), s("A1"), b(false)]),
        ("delete", "DeleteWhere", [s("t"), s("equals"), s("A1"), b(true)]),
        ("delete", "DeleteSections", [s("t"), ai([2])]),
        ("move", "MoveRow", [s("t"), i(0), i(0), i(0), i(1)]),
        ("move", "MoveSection", [s("t"), i(0), i(1)]),
        ("edit", "SetCell", [s("t"), i(0), i(0), s("x")]),
        ("edit", "SetHeader", [s("t"), i(0), s("x")]),
        ("edit", "SetFooter", [s("t"), i(0), s("x")]),
        ("insert", "InsertRow", [s("t"), i(0), i(0), s("x")]),
        ("insert", "InsertRows", [s("t"), i(0), i(0), strings(["x", "y"])]),
        ("insert", "InsertSection", [s("t"), i(0), s("x"), s("")]),
        ("insert", "ImportTable", [s("t"), s("lines"), s("x\n"), b(false)]),
        ("insert", "ImportTable", [s("t"), s("lines"), s("x\n"), b(true)]),
        ("copy", "PerformAction", [s("t"), s("copy"), i(0), i(0)]),
        ("cut", "PerformAction", [s("t"), s("cut"), i(0), i(0)]),
        ("paste", "PerformAction", [s("t"), s("paste"), i(0), i(0)]),
        ("delete", "PerformAction", [s("t"), s("delete"), i(0), i(0)]),
    ]

    @Test func everyGuardedMethodRefusesWhenItsActionIsNotAllowed() throws {
        let daemon = try DaemonProcess()
        try abc(daemon)
        let all = ["copy", "cut", "paste", "delete", "move", "edit", "insert"]
        for action in all {
            let others = all.filter { $0 != action }
            try daemon.call("SetAllowedActions", [s("t"), strings(others.reversed())])
            #expect(try daemon.call("GetAllowedActions", [s("t")]) == [strings(others)])
            #expect(try daemon.call("GetActions", [s("t"), i(0), i(0)]) == [strings(others)])
            #expect(try daemon.call("CanPerformAction", [s("t"), s(action), i(0), i(0)]) == [b(false)])
            let before = try daemon.snapshot("t")
            for call in Self.guardedCalls where call.action == action {
                let failure = daemon.failure(call.member, call.arguments)
                #expect(
                    failure?.name == CliptabBus.errorPrefix + "NotPermitted",
                    "\(call.member) without \(action)")
                #expect(failure?.message.contains(action) == true, "\(failure?.message ?? "")")
            }
            #expect(try daemon.snapshot("t") == before, "refused \(action) changed the table")
            // Reads are never guarded.
            try daemon.call("GetCell", [s("t"), i(0), i(0)])
            try daemon.call("ExportTable", [s("t"), s("json")])
        }
        // With no action allowed the menu is empty; a read-only table with only copy.
        try daemon.call("SetAllowedActions", [s("t"), strings([])])
        #expect(try daemon.call("GetActions", [s("t"), i(0), i(0)]) == [strings([])])
        try daemon.call("SetAllowedActions", [s("t"), strings(["copy", "copy"])])
        #expect(try daemon.call("GetAllowedActions", [s("t")]) == [strings(["copy"])])
        #expect(
            daemon.errorName("SetAllowedActions", [s("t"), strings(["copy", "fly"])])
                == CliptabBus.errorPrefix + "InvalidArgument")
        #expect(try daemon.call("GetAllowedActions", [s("t")]) == [strings(["copy"])])
        #expect(try daemon.call("CanPerformAction", [s("t"), s("copy"), i(0), i(0)]) == [b(true)])
        #expect(
            daemon.errorName("CanPerformAction", [s("t"), s("copy"), i(0), i(9)]) == CliptabBus.errorPrefix
                + "IndexOutOfRange")
        #expect(
            daemon.errorName("GetActions", [s("t"), i(0), i(9)]) == CliptabBus.errorPrefix + "IndexOutOfRange"
        )
        // Settings are durable and do not count as content changes.
        #expect(try daemon.revision("t") == 5)
        try daemon.restart()
        #expect(try daemon.call("GetAllowedActions", [s("t")]) == [strings(["copy"])])
        #expect(
            daemon.errorName("InsertRow", [s("t"), i(0), i(0), s("x")]) == CliptabBus.errorPrefix
                + "NotPermitted")
        // Importing into a missing table is a create, not an insert into an existing table.
        #expect(try daemon.call("ImportTable", [s("fresh"), s("lines"), s("x\n"), b(false)]) == [u(1)])
    }

    @Test func allowedActionsWithoutADisplay() throws {
        let daemon = try DaemonProcess()
        try abc(daemon)
        let before = try daemon.snapshot("t")
        // Copy, cut and paste reach the clipboard, which is unavailable: nothing changes.
        for call in Self.guardedCalls where ["copy", "cut", "paste"].contains(call.action) {
            #expect(
                daemon.errorName(call.member, call.arguments) == CliptabBus.errorPrefix
                    + "ClipboardUnavailable",
                "\(call.member) \(call.arguments)")
        }
        #expect(daemon.errorName("GetClipboard") == CliptabBus.errorPrefix + "ClipboardUnavailable")
        #expect(try daemon.snapshot("t") == before)
        try daemon.call("ClearClipboard")
        // PerformAction delete needs no clipboard: it deletes and answers the text.
        #expect(try daemon.call("PerformAction", [s("t"), s("delete"), i(0), i(-1)]) == [s("A3")])
        for action in ["move", "edit", "insert", "fly"] {
            #expect(
                daemon.errorName("PerformAction", [s("t"), s(action), i(0), i(0)]) == CliptabBus.errorPrefix
                    + "InvalidArgument")
        }
        #expect(try daemon.texts("t").first == ["A1", "A2"])
        #expect(try daemon.revision("t") == before.revision + 1)
        #expect(try daemon.call("Reload") == [strings([])])
    }

    @Test func secretFlagIsASettingNotAChange() throws {
        let daemon = try DaemonProcess()
        try abc(daemon)
        let listener = try daemon.connect()
        try listener.addMatch(CliptabBus.signalRule)
        let before = try daemon.snapshot("t")
        try daemon.call("SetSecret", [s("t"), b(true)])
        try daemon.call("SetSecret", [s("t"), b(true)])
        try daemon.call("SetSecret", [s("t"), b(false)])
        try daemon.call("SetSecret", [s("t"), b(true)])
        #expect(
            daemon.errorName("SetSecret", [s("nope"), b(true)]) == CliptabBus.errorPrefix + "NoSuchTable")
        #expect(try daemon.snapshot("t") == before)
        // Still secret (and so still refusing nothing else) after a restart; copies need X.
        try daemon.restart()
        #expect(try daemon.snapshot("t") == before)
        #expect(
            daemon.errorName("Copy", [s("t"), i(0), i(0)]) == CliptabBus.errorPrefix + "ClipboardUnavailable")
        #expect(try daemon.signals(on: listener).map { $0.member ?? "" } == [])
    }

    @Test func revisionCountsEveryContentChangeAndNothingElse() throws {
        let daemon = try DaemonProcess()
        try abc(daemon)
        var expected = try daemon.revision("t")
        let changes: [(String, [BusValue])] = [
            ("InsertSection", [s("t"), i(-1), s(""), s("")]),
            ("SetHeader", [s("t"), i(-1), s("D")]),
            ("SetHeader", [s("t"), i(-1), s("D")]),
            ("SetFooter", [s("t"), i(-1), s("")]),
            ("InsertRow", [s("t"), i(-1), i(-1), s("D1")]),
            ("InsertRows", [s("t"), i(-1), i(0), strings([])]),
            ("SetCell", [s("t"), i(-1), i(0), s("D1")]),
            ("MoveRow", [s("t"), i(-1), i(0), i(-1), i(0)]),
            ("MoveSection", [s("t"), i(0), i(0)]),
            ("DeleteRow", [s("t"), i(-1), i(0)]),
            ("DeleteWhere", [s("t"), s("equals"), s("nothing"), b(false)]),
            ("DeleteSections", [s("t"), ai([-1])]),
            ("ImportTable", [s("t"), s("lines"), s(""), b(false)]),
            ("PerformAction", [s("t"), s("delete"), i(0), i(0)]),
        ]
        for (member, arguments) in changes {
            try daemon.call(member, arguments)
            expected += 1
            #expect(try daemon.revision("t") == expected, "\(member) \(arguments)")
        }
        let unchanged: [(String, [BusValue])] = [
            ("GetSections", [s("t")]), ("GetRows", [s("t"), i(0), u(0), u(0)]),
            ("GetCell", [s("t"), i(0), i(0)]),
            ("ExportTable", [s("t"), s("tsv")]), ("FindSection", [s("t"), s("A")]),
            ("DeleteWhere", [s("t"), s("contains"), s("A"), b(true)]), ("SetSecret", [s("t"), b(true)]),
            (
                "SetAllowedActions",
                [s("t"), strings(["copy", "delete", "insert", "edit", "move", "cut", "paste"])]
            ),
            ("RenameTable", [s("t"), s("t")]),
            ("GetActions", [s("t"), i(0), i(0)]), ("CanPerformAction", [s("t"), s("copy"), i(0), i(0)]),
        ]
        for (member, arguments) in unchanged {
            try daemon.call(member, arguments)
            #expect(try daemon.revision("t") == expected, "\(member) \(arguments)")
        }
        try daemon.call("RenameTable", [s("t"), s("t2")])
        #expect(try daemon.revision("t2") == expected)
        try daemon.call("RenameTable", [s("t2"), s("t")])
        // Refused calls do not count either.
        for (member, arguments) in changes where member != "ImportTable" {
            #expect(
                daemon.errorName(member, [s("missing")] + arguments.dropFirst()) == CliptabBus.errorPrefix
                    + "NoSuchTable")
        }
        #expect(
            daemon.errorName("SetCell", [s("t"), i(9), i(0), s("x")]) == CliptabBus.errorPrefix
                + "IndexOutOfRange")
        #expect(try daemon.revision("t") == expected)
        try daemon.restart()
        #expect(try daemon.revision("t") == expected)
    }

    @Test func everyAcknowledgedChangeSurvivesKill9() throws {
        let daemon = try DaemonProcess()
        try abc(daemon)
        let steps: [(String, [BusValue])] = [
            ("CreateTable", [s("u")]), ("RenameTable", [s("u"), s("v")]), ("DropTable", [s("v")]),
            ("InsertSection", [s("t"), i(1), s("N"), s("n")]), ("SetHeader", [s("t"), i(1), s("M")]),
            ("SetFooter", [s("t"), i(1), s("m")]), ("MoveSection", [s("t"), i(1), i(-1)]),
            ("DeleteSections", [s("t"), ai([-1])]), ("InsertRow", [s("t"), i(2), i(0), s("x")]),
            ("InsertRows", [s("t"), i(2), i(0), strings(["y", "z"])]),
            ("SetCell", [s("t"), i(2), i(0), s("Y")]),
            ("MoveRow", [s("t"), i(2), i(0), i(1), i(1)]), ("DeleteRow", [s("t"), i(2), i(0)]),
            ("DeleteRows", [s("t"), ai([0, 0]), ai([0, 2])]),
            ("DeleteWhere", [s("t"), s("equals"), s("Y"), b(false)]),
            (
                "ImportTable",
                [s("t"), s("tsv"), s("section\theader\tfooter\trow\ttext\n0\tI\tf\t0\ti\n"), b(false)]
            ),
            ("ImportTable", [s("w"), s("lines"), s("w\n"), b(true)]),
            ("SetAllowedActions", [s("t"), strings(["copy", "delete"])]), ("SetSecret", [s("t"), b(true)]),
            ("PerformAction", [s("t"), s("delete"), i(0), i(0)]),
        ]
        for (member, arguments) in steps {
            try daemon.call(member, arguments)
            let before = try daemon.snapshotAll()
            try daemon.restart(SIGKILL)
            #expect(try daemon.snapshotAll() == before, "lost \(member) \(arguments)")
        }
        #expect(try daemon.tableNames() == ["t", "w"])
    }
}
