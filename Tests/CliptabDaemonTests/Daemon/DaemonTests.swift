// SPDX-License-Identifier: MIT
import CliptabContract
import CliptabDaemon
import DBus
import DaemonTestSupport
import Glibc
import Posix
import TestSupport
import Testing

/// The built daemon on a private bus, called through the project's own D-Bus module.
@Suite(.serialized)
struct DaemonTests {
    /// The rows of a section as texts.
    func texts(_ daemon: DaemonProcess, _ table: String, _ section: Int32) throws -> [String] {
        let reply = try daemon.call("GetRows", [s(table), i(section), .uint32(0), .uint32(0)])
        guard case .array(_, let rows) = reply.first else { return [] }
        return rows.map {
            guard case .structure(let fields) = $0, fields.count > 1, case .string(let text) = fields[1]
            else {
                return "?"
            }
            return text
        }
    }

    /// The seed's three sections of three cells, moved as the recipe moves them.
    @Test func seedMovesThroughTheBus() throws {
        let daemon = try DaemonProcess()
        try daemon.call("CreateTable", [s("seed")])
        try daemon.call("SetHeader", [s("seed"), i(0), s("Section 1")])
        for section in 2...3 {
            try daemon.call("InsertSection", [s("seed"), i(-1), s("Section \(section)"), s("")])
        }
        for section in 1...3 {
            try daemon.call(
                "InsertRows",
                [
                    s("seed"), i(Int32(section - 1)), i(-1),
                    strings((1...3).map { "Section \(section) Cell \($0)" }),
                ])
        }
        try daemon.call("MoveSection", [s("seed"), i(0), i(2)])
        let headers = try daemon.call("GetSections", [s("seed")])
        guard case .array(_, let sections) = headers.first else {
            Issue.record("GetSections gave \(headers)")
            return
        }
        #expect(
            sections.map { section -> String in
                guard case .structure(let fields) = section, case .string(let header)? = fields.first else {
                    return "?"
                }
                return header
            } == ["Section 2", "Section 3", "Section 1"])
        try daemon.call("MoveRow", [s("seed"), i(0), i(0), i(0), i(1)])
        #expect(try texts(daemon, "seed", 0) == ["Section 2 Cell 2", "Section 2 Cell 1", "Section 2 Cell 3"])
        try daemon.call("MoveRow", [s("seed"), i(0), i(1), i(1), i(0)])
        #expect(try texts(daemon, "seed", 0) == ["Section 2 Cell 2", "Section 2 Cell 3"])
        #expect(
            try texts(daemon, "seed", 1) == [
                "Section 2 Cell 1", "Section 3 Cell 1", "Section 3 Cell 2", "Section 3 Cell 3",
            ])
    }

    /// The Odd/Even table: find "Odd Numbers", delete it, delete every number > 2.
    @Test func oddEvenThroughTheBus() throws {
        let daemon = try DaemonProcess()
        try daemon.call(
            "ImportTable",
            [
                s("numbers"), s("lines"), s("## Even Numbers\n0\n2\n4\n6\n## Odd Numbers\n1\n3\n5\n7\n"),
                .boolean(false),
            ])
        let odd = try daemon.call("FindSection", [s("numbers"), s("Odd Numbers")])
        #expect(odd == [i(1)])
        let dry = try daemon.call("DeleteWhere", [s("numbers"), s(">"), s("2"), .boolean(true)])
        guard case .array(_, let dryPaths) = dry.first else { throw FixtureError("no paths") }
        #expect(dryPaths.count == 5)
        try daemon.call("DeleteSections", [s("numbers"), ai([1])])
        let deleted = try daemon.call("DeleteWhere", [s("numbers"), s(">"), s("2"), .boolean(false)])
        #expect(
            deleted == [
                .array(elementSignature: "(ii)", [.structure([i(0), i(2)]), .structure([i(0), i(3)])])
            ])
        #expect(try texts(daemon, "numbers", 0) == ["0", "2"])
    }

    /// Each contract error that a table call can produce arrives under its D-Bus name.
    @Test func namedErrors() throws {
        let daemon = try DaemonProcess()
        try daemon.call("CreateTable", [s("t")])
        try daemon.call("InsertRow", [s("t"), i(0), i(0), s("one")])
        let cases: [(String, [BusValue], String)] = [
            ("GetCell", [s("missing"), i(0), i(0)], "NoSuchTable"),
            ("CreateTable", [s("t")], "TableExists"),
            ("CreateTable", [s("a/b")], "InvalidName"),
            ("CreateTable", [s("")], "InvalidName"),
            ("FindSection", [s("t"), s("nope")], "NoSuchSection"),
            ("Locate", [.uint64(999_999)], "NoSuchRow"),
            ("GetCell", [s("t"), i(0), i(Int32.min)], "IndexOutOfRange"),
            ("GetCell", [s("t"), i(Int32.max), i(0)], "IndexOutOfRange"),
            ("DeleteWhere", [s("t"), s("like"), s("x"), .boolean(true)], "InvalidArgument"),
            ("DeleteRows", [s("t"), ai([0, 0]), ai([0, 0])], "InvalidArgument"),
            ("ExportTable", [s("t"), s("xml")], "InvalidArgument"),
            ("CanPerformAction", [s("t"), s("fly"), i(0), i(0)], "InvalidArgument"),
            ("PerformAction", [s("t"), s("move"), i(0), i(0)], "InvalidArgument"),
            ("Copy", [s("t"), i(0), i(0)], "ClipboardUnavailable"),
            ("GetClipboard", [], "ClipboardUnavailable"),
        ]
        for (member, arguments, name) in cases {
            #expect(
                daemon.errorName(member, arguments) == CliptabBus.errorPrefix + name, "\(member) \(arguments)"
            )
        }
        try daemon.call("SetAllowedActions", [s("t"), strings(["copy"])])
        #expect(
            daemon.errorName("DeleteRow", [s("t"), i(0), i(0)]) == CliptabBus.errorPrefix + "NotPermitted")
        #expect(try texts(daemon, "t", 0) == ["one"])
    }

    /// Wrong signatures and unknown members get the standard D-Bus errors, and the daemon lives.
    @Test func badCallsGetStandardErrors() throws {
        let daemon = try DaemonProcess()
        #expect(daemon.errorName("GetCell", [s("t")]) == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(daemon.errorName("GetCell", [i(1), i(2), i(3)]) == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(daemon.errorName("NoSuchMethod") == "org.freedesktop.DBus.Error.UnknownMethod")
        #expect(try daemon.call("ListTables") == [strings([])])
        #expect(daemon.process.isRunning)
    }

    /// An acknowledged change survives `kill -9`.
    @Test func durableBeforeAcknowledged() throws {
        let daemon = try DaemonProcess()
        try daemon.call("CreateTable", [s("durable")])
        let reply = try daemon.call("InsertRow", [s("durable"), i(0), i(-1), s("kept\tacross\nkill -9")])
        try daemon.restart(SIGKILL)
        #expect(try daemon.call("GetCell", [s("durable"), i(0), i(0)]) == [s("kept\tacross\nkill -9")])
        #expect(try daemon.call("Locate", [try #require(reply.first)]) == [s("durable"), i(0), i(0)])
    }

    /// A second instance refuses to start; `--replace` takes over and the first one stops.
    @Test func singleInstanceAndReplace() throws {
        let daemon = try DaemonProcess()
        let second = try daemon.spawnOther(arguments: [])
        #expect(second.waitForExit(timeoutMilliseconds: 10_000) == .exited(1))
        let replacement = try daemon.spawnOther(arguments: ["--replace"])
        #expect(daemon.process.waitForExit(timeoutMilliseconds: 10_000) == .exited(0))
        try daemon.waitUntilServingBy(replacement)
        replacement.terminate()
    }

    /// Any client may ask for the name with replacement: a program that is not a cliptabd
    /// taking it makes the daemon fail (status 69, which the unit restarts on) and name it,
    /// where it once stopped with status 0 as if replaced; while it holds the name, a start
    /// fails the same way.
    @Test func aSquatterOfTheNameIsAFailure() throws {
        let daemon = try DaemonProcess()
        let squatter = try daemon.connect()
        defer { squatter.close() }
        #expect(try squatter.requestName(CliptabBus.name, replaceExisting: true) == .primaryOwner)
        #expect(
            daemon.process.waitForExit(timeoutMilliseconds: 10_000) == .exited(Daemon.nameTakenExitStatus))
        #expect(daemon.log.contains("PID \(getpid()) ("), "\(daemon.log)")
        #expect(daemon.log.contains("is not a cliptabd"), "\(daemon.log)")
        let second = try daemon.spawnOther(arguments: [])
        #expect(second.waitForExit(timeoutMilliseconds: 10_000) == .exited(Daemon.nameTakenExitStatus))
    }

    /// A daemon on another bus refuses a store that a running daemon holds.
    @Test func oneDaemonPerStore() throws {
        let daemon = try DaemonProcess()
        let otherBus = try PrivateBus()
        let second = try ChildProcess.spawn(
            BuiltProducts.path(of: "cliptabd"), [],
            environment: daemon.environment.merging(["DBUS_SESSION_BUS_ADDRESS": otherBus.address]) { $1 },
            stdout: .null,
            stderr: .pipe)
        #expect(second.waitForExit(timeoutMilliseconds: 10_000) == .exited(1))
        var message = [UInt8](repeating: 0, count: 4096)
        let count = message.withUnsafeMutableBytes { read(second.standardError, $0.baseAddress, $0.count) }
        #expect(
            String(decoding: message[0..<max(count, 0)], as: UTF8.self).contains("in use by another cliptabd")
        )
        #expect(try daemon.call("ListTables") == [strings([])])
    }

    /// SIGTERM stops the daemon with status 0; losing the bus stops it non-zero.
    @Test func stopsCleanly() throws {
        let daemon = try DaemonProcess()
        daemon.process.signal(SIGTERM)
        #expect(daemon.process.waitForExit(timeoutMilliseconds: 10_000) == .exited(0))
        let other = try DaemonProcess()
        other.bus.stop()
        let ended = other.process.waitForExit(timeoutMilliseconds: 10_000)
        #expect(ended != nil && ended != .exited(0))
    }

    /// The live Introspect XML, `--print-introspection` and the file in the repository agree.
    @Test func introspectionMatchesTheRepositoryFile() throws {
        let daemon = try DaemonProcess()
        let message = try BusMessage.methodCall(
            destination: "io.github.cliptab.Cliptab1", path: "/io/github/cliptab/Cliptab1",
            interface: "org.freedesktop.DBus.Introspectable", member: "Introspect")
        let live = try daemon.client.call(message, timeoutMilliseconds: 10_000).readValues()
        let printed = try ChildProcess.run(BuiltProducts.path(of: "cliptabd"), ["--print-introspection"])
        let file = try readFile(repositoryFile("Sources/CliptabDaemon/Bus/io.github.cliptab.Cliptab1.xml"))
        #expect(printed.outputText == file)
        guard case .string(let xml) = live.first else { throw FixtureError("Introspect gave \(live)") }
        #expect(xml == file)
    }
}

/// The path of `relative` in this repository.
func repositoryFile(_ relative: String) -> String { Repository.path(relative) }

/// The whole text of the file at `path`.
func readFile(_ path: String) throws -> String {
    let result = try ChildProcess.run("cat", [path])
    guard result.termination == .exited(0) else {
        throw FixtureError("cannot read \(path): \(result.errorText)")
    }
    return result.outputText
}
