// SPDX-License-Identifier: MIT
import CliptabClient
import CliptabContract
import DBus
import DaemonTestSupport
import Glibc
import Posix
import TestSupport
import Testing

/// Hostile D-Bus input from several connections at once.
@Suite(.serialized)
struct FuzzTests {
    /// Calls per run (at least 100,000, so that rare paths are reached).
    static let calls = 100_000
    /// Connections sending at once.
    static let connections = 6
    /// Calls in flight per connection.
    static let depth = 12
    /// How much the daemon's resident memory may grow over the fuzzing, beyond what it
    /// holds after a warm-up of 5,000 calls (KiB).
    static let memoryBoundKiB = 48 * 1024

    /// Error names a hostile call may get: the contract's, and the standard ones for a
    /// wrong signature, member, interface, object or property.
    static let expectedErrors: Set<String> = [
        "org.freedesktop.DBus.Error.InvalidArgs", "org.freedesktop.DBus.Error.UnknownMethod",
        "org.freedesktop.DBus.Error.UnknownObject", "org.freedesktop.DBus.Error.UnknownInterface",
        "org.freedesktop.DBus.Error.UnknownProperty", "org.freedesktop.DBus.Error.PropertyReadOnly",
        // A connection's calls past 16 MiB waiting to be served (its near-limit messages) are
        // refused at once, so that its backlog delays only itself.
        "org.freedesktop.DBus.Error.LimitsExceeded",
    ]

    /// Every action of the contract.
    static let actions = ["copy", "cut", "paste", "delete", "move", "edit", "insert"]

    /// The running totals of a run.
    struct Tally {
        var sent = 0
        var answered = 0
        var succeeded = 0
        var errors: [String: Int] = [:]
        var problems: [String] = []
        var members: [String: Int] = [:]
        var reconnects = 0
        var abandoned = 0

        mutating func problem(_ text: String) {
            if problems.count < 20 { problems.append(text) }
        }
    }

    /// The daemon's resident memory once it is idle and has given freed memory back (it
    /// does so within a second of its last work).
    static func settledResident(_ daemon: DaemonProcess, _ control: BusConnection) -> Int {
        _ = try? CliptabClient.call(control, "ListTables")
        return daemon.residentAfterTrimKiB()
    }

    /// Creates the fuzzer's tables where missing, and allows every action on them.
    static func resetTables(_ control: BusConnection) throws {
        for table in FuzzValues.tables {
            if let error = Cliptab.errorName(control, "CreateTable", [s(table)]), error != "TableExists" {
                throw FixtureError("CreateTable \(table): \(error)")
            }
            try CliptabClient.call(control, "SetAllowedActions", [s(table), strings(actions)])
        }
    }

    /// Makes every fuzz table anew, with all actions, two sections and 20 rows in the first:
    /// what a call's checks meet does not depend on what the fuzzing left (a call near the
    /// size limit into a table without sections is refused for the index first).
    static func freshTables(_ control: BusConnection) throws {
        try resetTables(control)
        for table in FuzzValues.tables {
            try CliptabClient.call(control, "DropTable", [s(table)])
            try CliptabClient.call(control, "CreateTable", [s(table)])
            try CliptabClient.call(control, "InsertSection", [s(table), i(-1), s("second"), s("")])
            try CliptabClient.call(
                control, "InsertRows", [s(table), i(0), i(0), strings((0..<20).map { "row \($0)" })])
        }
    }

    @Test func hostileCalls() throws {
        var random = SeededRandom("fuzz")
        let daemon = try DaemonProcess()
        let control = try BusConnection.connect(address: daemon.bus.address)
        try Self.freshTables(control)
        let introspection = try control.call(
            try CliptabClient.message("Introspect", interface: "org.freedesktop.DBus.Introspectable"),
            timeoutMilliseconds: 10_000
        ).readValues()
        guard case .string(let xml)? = introspection.first else { throw FixtureError("no introspection") }
        let methods = FuzzMethod.parse(xml)
        #expect(methods.count >= 40, "introspection lists only \(methods.count) methods")

        var values = FuzzValues()
        var tally = Tally()
        let pool = try CallPool(address: daemon.bus.address, count: Self.connections)

        /// One hostile call: mostly a real method with hostile arguments, else a wrong
        /// signature, an unknown member, interface or object.
        func makeCall() throws -> (BusMessage, String?) {
            let method = random.pick(methods)
            var path = CliptabBus.path
            var interface: String? = method.interface
            var member = method.member
            var arguments = method.inputs.map { values.value($0.name, $0.type, &random) }
            var expectedSignature: String? = method.outSignature
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<10:
                arguments = (0..<Int.random(in: 0...5, using: &random)).map { _ in
                    values.anyValue(&random, depth: 0)
                }
                if arguments.map(\.signature).joined() != method.inputs.map(\.type).joined() {
                    expectedSignature = nil
                }
            case 10..<14:
                member = random.pick(["Frobnicate", "insertRow", "InsertRowX", "X\(random.next32())"])
                expectedSignature = nil
            case 14..<16:
                interface = random.pick(["io.github.cliptab.Cliptab2", "org.example.Nothing"])
                expectedSignature = nil
            case 16..<18:
                path = random.pick(["/", "/io/github/cliptab", "/io/github/cliptab/Cliptab1/child"])
                expectedSignature = nil
            case 18..<20:
                // No interface: the method is found by name.
                interface = nil
            default:
                break
            }
            tally.members[member, default: 0] += 1
            let message = try BusMessage.methodCall(
                destination: CliptabBus.name, path: path, interface: interface, member: member)
            try message.append(arguments)
            return (message, expectedSignature)
        }

        func handle(_ result: Result<BusMessage, BusError>, expected: String?, member: String) {
            tally.answered += 1
            switch result {
            case .success(let reply):
                tally.succeeded += 1
                if let expected, reply.signature != expected {
                    tally.problem("\(member) answered \(reply.signature), not \(expected)")
                }
                for value in (try? reply.readValues()) ?? [] {
                    if case .uint64(let id) = value, member == "InsertRow", values.ids.count < 10_000 {
                        values.ids.append(id)
                    }
                }
            case .failure(let error):
                tally.errors[Cliptab.short(error.name), default: 0] += 1
                if !error.name.hasPrefix(CliptabBus.errorPrefix) && !Self.expectedErrors.contains(error.name)
                {
                    tally.problem("\(member): \(error)")
                } else if error.message.isEmpty {
                    tally.problem("\(member): \(error.name) without a message")
                }
            }
        }

        func send(_ slot: Int) throws {
            let message: BusMessage
            let expected: String?
            do {
                (message, expected) = try makeCall()
            } catch {
                // Refused by the client library (a value the protocol cannot carry).
                return
            }
            let member = message.member ?? ""
            tally.sent += 1
            let summary = "\(member)(\(message.signature.prefix(20)))"
            try pool.send(slot, message) { result, time in
                slowestCalls.append((time / 1000, summary))
                slowestCalls.sort { $0.0 > $1.0 }
                if slowestCalls.count > 5 { slowestCalls.removeLast() }
                handle(result, expected: expected, member: member)
            }
        }

        var residentBefore = 0
        var slowestCalls: [(UInt64, String)] = []
        var nextReconnect = 2500
        var nextHitAndRun = 1000
        var nextReset = 5000
        let start = MonotonicClock.milliseconds()
        while tally.sent < Self.calls {
            if residentBefore == 0 && tally.sent >= 5000 {
                pool.drain()
                residentBefore = Self.settledResident(daemon, control)
            }
            for slot in 0..<Self.connections where pool.inFlight[slot] < Self.depth && tally.sent < Self.calls
            {
                try send(slot)
            }
            if tally.sent >= nextReconnect {
                // Disconnect in the middle of calls: the daemon's replies find nobody.
                nextReconnect += 2500
                let slot = Int.random(in: 0..<Self.connections, using: &random)
                tally.abandoned += pool.inFlight[slot]
                try pool.reconnect(slot)
                tally.reconnects += 1
            }
            if tally.sent >= nextReset {
                // The fuzzing drops, renames and locks its tables: bring them back now and then.
                nextReset += 5000
                // Calls in flight would drop or rename a table between its CreateTable and its
                // SetAllowedActions (seed 8136735595127 did): let them end first.
                pool.drain()
                try Self.resetTables(control)
            }
            if tally.sent >= nextHitAndRun {
                nextHitAndRun += 1000
                let passer = try BusConnection.connect(address: daemon.bus.address)
                for _ in 0..<Int.random(in: 1...5, using: &random) {
                    if let (message, _) = try? makeCall() {
                        try passer.send(message)
                        tally.sent += 1
                        tally.abandoned += 1
                    }
                }
                passer.flush()
                passer.close()
            }
            pool.turn(milliseconds: 5)
        }
        #expect(pool.drain(milliseconds: 300_000), "calls got no answer: the daemon hangs")
        let fuzzSeconds = Double(MonotonicClock.milliseconds() - start) / 1000

        // Messages near the bus's size limit, each on its own connection.
        let big = try BusConnection.connect(address: daemon.bus.address)
        let nearLimit = String(repeating: "n", count: (128 << 20) - (64 << 10))
        let largeCalls: [(String, [BusValue], String)] = [
            ("InsertRow", [s("f0"), i(0), i(-1), s(nearLimit)], "LimitExceeded"),
            ("ImportTable", [s("imported"), s("lines"), s(nearLimit), .boolean(false)], "LimitExceeded"),
            ("SetHeader", [s("f1"), i(0), s(nearLimit)], "LimitExceeded"),
            // 60 MiB of indexes: refused before they are decoded, at once.
            ("DeleteRows", [s("f2"), ai(Array(repeating: 0, count: 15 << 20)), ai([0])], "LimitExceeded"),
            ("DeleteRows", [s("f2"), ai(Array(repeating: 0, count: 1 << 20)), ai([0])], "InvalidArgument"),
            (
                "InsertRows", [s("f3"), i(0), i(0), strings(Array(repeating: "", count: 3 << 20))],
                "LimitExceeded"
            ),
        ]
        var slowest = 0.0
        try Self.freshTables(control)
        for (member, arguments, error) in largeCalls {
            let began = MonotonicClock.milliseconds()
            #expect(Cliptab.errorName(big, member, arguments) == error, "\(member) near the size limit")
            slowest = max(slowest, Double(MonotonicClock.milliseconds() - began) / 1000)
            tally.sent += 1
        }

        // Strings that are not UTF-8, or hold NUL, written by hand: the bus must drop the
        // sender, and nothing may reach the daemon.
        var rawAttempts = 0
        let targetBefore = try TableSnapshot.read(control, "f3")
        for bytes: [UInt8] in [
            [0xFF, 0xFE], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0x61, 0x00, 0x62], [0xF4, 0x90, 0x80, 0x80],
        ] {
            let raw = try RawBusClient(address: daemon.bus.address)
            var body = Marshal()
            body.string(Array("f3".utf8))
            body.i32(0)
            body.i32(-1)
            body.string(bytes)
            try raw.call(
                destination: CliptabBus.name, path: CliptabBus.path, interface: CliptabBus.interface,
                member: "InsertRow",
                signature: "siis", body: body.bytes)
            #expect(raw.isClosedByPeer(within: 5000), "the bus kept a sender of \(bytes)")
            rawAttempts += 1
        }
        tally.sent += rawAttempts
        let targetAfter = try TableSnapshot.read(control, "f3")
        #expect(targetBefore == targetAfter, "a hand-written call reached the daemon")

        // Afterwards: the same daemon process is alive, its memory bounded, and its store
        // equals what it serves.
        #expect(daemon.process.isRunning && daemon.starts == 1, "the daemon died")
        let residentAfter = Self.settledResident(daemon, control)
        #expect(
            residentAfter - residentBefore <= Self.memoryBoundKiB,
            "resident memory grew from \(residentBefore) KiB to \(residentAfter) KiB")
        let served = try TableSnapshot.readAll(control)
        #expect(daemon.kill(SIGTERM) == .exited(0))
        try daemon.start()
        let stored = try TableSnapshot.readAll(control)
        #expect(
            served == stored,
            "the store differs from what the daemon served: \(TableSnapshot.difference(served, stored) ?? "")"
        )
        #expect(tally.problems.isEmpty, "\(tally.problems.joined(separator: "\n"))")
        let untested = methods.filter { (tally.members[$0.member] ?? 0) < 100 }.map(\.member)
        #expect(untested.isEmpty, "methods called fewer than 100 times: \(untested)")
        print(
            "fuzz: \(tally.sent) calls (\(rawAttempts) hand-written with invalid UTF-8 or NUL) from \(Self.connections) connections "
                + "in \(Int(fuzzSeconds)) s; \(tally.answered) answered, \(tally.succeeded) succeeded; "
                + "\(tally.reconnects) disconnects mid-call (\(tally.abandoned) calls abandoned); "
                + "near-limit messages took at most \(slowest) s; RSS \(residentBefore) -> \(residentAfter) KiB "
                + "(bound +\(Self.memoryBoundKiB) KiB); \(served.count) tables")
        print("fuzz: errors \(tally.errors.sorted { $0.key < $1.key })")
        print("fuzz: slowest calls (ms): \(slowestCalls)")
    }
}
