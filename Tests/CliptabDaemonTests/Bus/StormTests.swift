// SPDX-License-Identifier: MIT
import CliptabClient
import CliptabContract
import DBus
import DaemonTestSupport
import Foundation
import Glibc
import Posix
import Synchronization
import TestSupport
import Testing

/// What the clients of a storm saw, shared between their threads.
final class StormLog: Sendable {
    struct State {
        var outcomes: [String: Int] = [:]
        var problems: [String] = []
        var finished = 0
    }

    let state = Mutex(State())

    func record(_ outcome: String) { state.withLock { $0.outcomes[outcome, default: 0] += 1 } }

    func problem(_ text: String) { state.withLock { $0.problems.append(text) } }
}

/// Random calls with random arguments, mostly well-typed (so that they reach the model) and
/// some of any type.
struct StormGenerator {
    var random: SeededRandom
    let methods: [MethodDeclaration]

    static let tables = [
        "s0", "s0", "s0", "s0", "s1", "s1", "s1", "s1", "s2", "s2", "s2", "s2", "s3", "missing", "", "a/b",
    ]
    static let texts = [
        "", "x", "hello, world", "tab\there", "two\nlines", "## h", "日本語", "🙂", "2", "-3", "2.5", "10",
        "apple",
        "\\", "\"",
    ]

    mutating func index() -> Int32 {
        random.percent(75)
            ? Int32.random(in: -3...4, using: &random)
            : random.pick([Int32.min, Int32.max, Int32.min + 1, -1000, 1000])
    }

    mutating func text() -> String {
        if random.percent(1) { return String(repeating: random.pick(["a", "é", "\n"]), count: 100_000) }
        return random.pick(Self.texts)
    }

    mutating func string(named name: String) -> String {
        switch name {
        case "table", "new_name": return random.pick(Self.tables)
        case "format": return random.pick(["json", "tsv", "lines", "csv"])
        case "op": return random.pick(RowOperators.all + ["like", ""])
        case "operand":
            return random.pick(["2", "a", "-3", "", "(a*)*b", "^[0-9]+$", "(", "x{300}", "[[:alpha:]]+$"])
        case "action":
            return random.pick(["copy", "cut", "paste", "delete", "move", "edit", "insert", "fly"])
        case "data":
            return random.pick([
                "a\n## H\nb\n", "", "## only\n", "section\theader\tfooter\trow\ttext\n0\th\t\t0\tt\n",
                "{\"name\": \"n\", \"sections\": [{\"header\": \"\", \"footer\": \"\", \"rows\": []}]}", "{",
                "\t\t\n",
            ])
        default: return text()
        }
    }

    mutating func value(_ type: String, named name: String) -> BusValue {
        switch type {
        case "s": return .string(string(named: name))
        case "i": return .int32(index())
        case "u": return .uint32(random.pick([0, 1, 2, 5, UInt32.max]))
        case "t": return .uint64(random.percent(90) ? UInt64.random(in: 0...80, using: &random) : UInt64.max)
        case "b": return .boolean(random.percent(50))
        case "ai":
            return .array(
                elementSignature: "i",
                (0..<Int.random(in: 0...3, using: &random)).map { _ in .int32(index()) })
        case "as" where name == "actions" && random.percent(50):
            return .array(
                elementSignature: "s",
                ["copy", "cut", "paste", "delete", "move", "edit", "insert"].map(BusValue.string))
        case "as":
            return .array(
                elementSignature: "s",
                (0..<Int.random(in: 0...3, using: &random)).map { _ in
                    .string(string(named: name == "actions" ? "action" : "text"))
                })
        default: return anyValue()
        }
    }

    /// A value of a random type, containers included.
    mutating func anyValue(depth: Int = 0) -> BusValue {
        switch Int.random(in: 0..<(depth > 1 ? 12 : 16), using: &random) {
        case 0: return .byte(UInt8.random(in: 0...255, using: &random))
        case 1: return .boolean(random.percent(50))
        case 2: return .int16(Int16.random(in: Int16.min...Int16.max, using: &random))
        case 3: return .uint16(UInt16.random(in: 0...UInt16.max, using: &random))
        case 4: return .int32(index())
        case 5: return .uint32(UInt32.random(in: 0...UInt32.max, using: &random))
        case 6: return .int64(Int64.random(in: Int64.min...Int64.max, using: &random))
        case 7: return .uint64(UInt64.random(in: 0...UInt64.max, using: &random))
        case 8: return .double(random.pick([0, -1.5, .nan, .infinity, 1e308]))
        case 9: return .string(text())
        case 10: return .objectPath(random.pick(["/", "/a/b", "/io/github/cliptab/Cliptab1"]))
        case 11: return .signature(random.pick(["", "s", "a{sv}", "(ii)"]))
        case 12: return .variant(anyValue(depth: depth + 1))
        case 13: return .structure([anyValue(depth: depth + 1), anyValue(depth: depth + 1)])
        case 14: return .array(elementSignature: "i", (0..<3).map { _ in .int32(index()) })
        default:
            return .dictionary(keySignature: "s", valueSignature: "v", [(.string("k"), .variant(.int32(1)))])
        }
    }

    /// One call: interface, member and arguments.
    mutating func call() -> (interface: String, member: String, arguments: [BusValue]) {
        let roll = Int.random(in: 0..<100, using: &random)
        if roll < 2 {
            return (CliptabBus.interface, random.pick(["Nope", "getcell", "ListTables2"]), [anyValue()])
        }
        if roll < 5 {
            let properties = "org.freedesktop.DBus.Properties"
            return random.pick([
                ("org.freedesktop.DBus.Introspectable", "Introspect", []),
                ("org.freedesktop.DBus.Peer", "Ping", []),
                (
                    properties, "Get",
                    [.string(CliptabBus.interface), .string(random.pick(["Tables", "Version", "Nope"]))]
                ),
                (properties, "GetAll", [.string(random.pick([CliptabBus.interface, "x.y"]))]),
                (
                    properties, "Set",
                    [.string(CliptabBus.interface), .string("ApiVersion"), .variant(.uint32(2))]
                ),
            ])
        }
        let method = random.pick(methods)
        if roll < 15 {
            return (
                CliptabBus.interface, method.name,
                (0..<Int.random(in: 0...4, using: &random)).map { _ in anyValue() }
            )
        }
        return (CliptabBus.interface, method.name, method.inputs.map { value($0.type, named: $0.name) })
    }
}

/// The operators of `DeleteWhere`.
enum RowOperators {
    static let all = ["equals", "contains", "prefix", "suffix", "matches", ">", ">=", "<", "<=", "==", "!="]
}

/// 10,000 random calls from several clients at once: the daemon stays up, every reply is a
/// success (with the declared signature) or a named error, and the store equals the model.
@Suite(.serialized)
struct StormTests {
    static let clients = 4
    static let callsPerClient = 2_500

    @Test func randomCallsFromSeveralClients() throws {
        let daemon = try DaemonProcess()
        for name in ["s0", "s1", "s2"] {
            try daemon.call("ImportTable", [s(name), s("lines"), s("a\nb\n## H\n2\n-3\n"), b(false)])
        }
        let methods = try declaredMethods()
        let log = StormLog()
        let address = daemon.bus.address
        let seed = SeededRandom.seed(for: "storm (client n adds n)", fixed: 20_251_129)
        for client in 0..<Self.clients {
            Thread.detachNewThread {
                defer { log.state.withLock { $0.finished += 1 } }
                let connection: BusConnection
                do {
                    connection = try BusConnection.connect(address: address)
                } catch {
                    log.problem("client \(client) could not connect: \(error)")
                    return
                }
                var generator = StormGenerator(
                    random: SeededRandom(seed: seed &+ UInt64(client)), methods: methods)
                let declared = Dictionary(methods.map { ($0.name, $0.outSignature) }) { first, _ in first }
                for number in 0..<Self.callsPerClient {
                    let (interface, member, arguments) = generator.call()
                    let context =
                        "client \(client) call \(number): \(interface).\(member) \(arguments.map(\.signature))"
                    do {
                        let message = try CliptabClient.message(member, arguments, interface: interface)
                        let reply = try connection.call(message, timeoutMilliseconds: 30_000)
                        if interface == CliptabBus.interface, reply.signature != declared[member] {
                            log.problem("\(context): reply signature \(reply.signature)")
                        }
                        log.record("success")
                    } catch let error as BusError {
                        let standard = [
                            "org.freedesktop.DBus.Error.InvalidArgs",
                            "org.freedesktop.DBus.Error.UnknownMethod",
                            "org.freedesktop.DBus.Error.UnknownProperty",
                            "org.freedesktop.DBus.Error.UnknownInterface",
                            "org.freedesktop.DBus.Error.PropertyReadOnly",
                        ]
                        if !(error.name.hasPrefix(CliptabBus.errorPrefix) || standard.contains(error.name))
                            || error.message.isEmpty
                        {
                            log.problem("\(context): \(error)")
                        }
                        log.record(error.name.replacingOccurrences(of: CliptabBus.errorPrefix, with: ""))
                    } catch {
                        log.problem("\(context): \(error)")
                    }
                }
            }
        }
        let deadline = MonotonicClock.milliseconds() + 300_000
        while log.state.withLock({ $0.finished }) < Self.clients && MonotonicClock.milliseconds() < deadline {
            usleep(20_000)
        }
        let state = log.state.withLock { $0 }
        #expect(state.finished == Self.clients)
        #expect(state.problems.isEmpty, "\(state.problems.prefix(20))")
        #expect(state.outcomes.values.reduce(0, +) == Self.clients * Self.callsPerClient)
        // Enough calls reached the model to mean something.
        #expect((state.outcomes["success"] ?? 0) > 1_500, "\(state.outcomes)")
        #expect((state.outcomes["IndexOutOfRange"] ?? 0) > 500, "\(state.outcomes)")
        #expect(daemon.process.isRunning)

        let exported = try daemon.exportAll()
        let snapshot = try daemon.snapshotAll()
        try daemon.restart(SIGKILL)
        #expect(try daemon.exportAll() == exported)
        #expect(try daemon.snapshotAll() == snapshot)
        #expect(!exported.isEmpty)
    }
}

/// Calls that arrive faster than they are answered, and calls of unusual shape.
@Suite(.serialized)
struct PipelineTests {
    /// 5,000 calls sent before any reply is read, changes and reads mixed: every reply comes,
    /// in order, with the right content.
    @Test func pipelinedCallsAreAnsweredInOrder() throws {
        let daemon = try DaemonProcess()
        try daemon.call("CreateTable", [s("p")])
        var serials: [UInt32] = []
        var expected: [BusValue?] = []
        for index in 0..<5_000 {
            let member: String
            let arguments: [BusValue]
            switch index % 4 {
            case 0:
                member = "InsertRow"
                arguments = [s("p"), i(0), i(-1), s("row \(index / 4)")]
                expected.append(nil)
            case 1:
                member = "GetCell"
                arguments = [s("p"), i(0), i(Int32(index / 4))]
                expected.append(s("row \(index / 4)"))
            case 2:
                member = "GetCell"
                arguments = [s("p"), i(0), i(Int32(index / 4 + 1))]
                expected.append(.string(CliptabBus.errorPrefix + "IndexOutOfRange"))
            default:
                member = "GetRevision"
                arguments = [s("p")]
                expected.append(t(UInt64(index / 4 + 1)))
            }
            serials.append(try daemon.client.send(CliptabClient.message(member, arguments)))
        }
        var answered = 0
        while answered < serials.count, let reply = daemon.client.readMessage(timeoutMilliseconds: 30_000) {
            guard reply.type == .methodReturn || reply.type == .error else { continue }
            #expect(reply.replySerial == serials[answered], "reply \(answered)")
            if let value = expected[answered] {
                if reply.type == .error {
                    #expect(.string(reply.errorName ?? "") == value, "reply \(answered)")
                } else {
                    #expect(try reply.readValues() == [value], "reply \(answered)")
                }
            } else {
                #expect(
                    reply.type == .methodReturn, "reply \(answered): \(String(describing: reply.busError))")
            }
            answered += 1
        }
        #expect(answered == serials.count)
        #expect(try daemon.revision("p") == 1_250)
    }

    /// A call without an interface finds the method by name; a call that asks for no reply is
    /// still carried out; wrong objects, interfaces and properties get standard errors.
    @Test func callsOfUnusualShape() throws {
        let daemon = try DaemonProcess()
        try daemon.call("CreateTable", [s("u")])
        let bare = try BusMessage.methodCall(
            destination: CliptabBus.name, path: CliptabBus.path, interface: nil, member: "InsertRow")
        try bare.append([s("u"), i(0), i(-1), s("without interface")])
        #expect(try daemon.client.call(bare, timeoutMilliseconds: 10_000).readValues() == [t(1)])

        let silent = try CliptabClient.message("InsertRow", [s("u"), i(0), i(-1), s("no reply wanted")])
        try silent.setNoReplyExpected(true)
        let silentSerial = try daemon.client.send(silent)
        let failing = try CliptabClient.message("GetCell", [s("nope"), i(0), i(0)])
        try failing.setNoReplyExpected(true)
        let failingSerial = try daemon.client.send(failing)
        #expect(try daemon.texts("u") == [["without interface", "no reply wanted"]])
        // Neither got a reply.
        while let stray = daemon.client.readMessage(timeoutMilliseconds: 0) {
            #expect(stray.replySerial != silentSerial && stray.replySerial != failingSerial)
        }

        func standardError(_ path: String, _ interface: String, _ member: String, _ arguments: [BusValue])
            -> String?
        {
            do {
                let message = try BusMessage.methodCall(
                    destination: CliptabBus.name, path: path, interface: interface, member: member)
                try message.append(arguments)
                _ = try daemon.client.call(message, timeoutMilliseconds: 10_000)
                return nil
            } catch let error as BusError {
                return error.name
            } catch {
                return "\(error)"
            }
        }
        let properties = "org.freedesktop.DBus.Properties"
        // libdbus answers for paths without an object (UnknownObject, or UnknownMethod on a
        // path that only leads to one).
        for path in ["/nope", "/io/github/cliptab"] {
            let name = standardError(path, CliptabBus.interface, "ListTables", [])
            #expect(
                name == "org.freedesktop.DBus.Error.UnknownObject"
                    || name == "org.freedesktop.DBus.Error.UnknownMethod",
                "\(path): \(name ?? "success")")
        }
        #expect(
            standardError(CliptabBus.path, "io.github.cliptab.Nope", "ListTables", [])
                == "org.freedesktop.DBus.Error.UnknownMethod")
        #expect(
            standardError(CliptabBus.path, properties, "Get", [s(CliptabBus.interface), s("Nope")])
                == "org.freedesktop.DBus.Error.UnknownProperty")
        #expect(
            standardError(
                CliptabBus.path, properties, "Set",
                [s(CliptabBus.interface), s("ApiVersion"), .variant(u(2))])
                == "org.freedesktop.DBus.Error.PropertyReadOnly")
        #expect(
            standardError(CliptabBus.path, properties, "GetAll", [s("io.github.cliptab.Nope")])
                == "org.freedesktop.DBus.Error.UnknownInterface")
        #expect(daemon.process.isRunning)
    }
}
