// SPDX-License-Identifier: MIT
import DBus
import Glibc
import TestSupport
import Testing

/// Calls from several clients are served round-robin, each client's in the order it sent
/// them: one client's backlog costs only that client.
@Suite struct FairnessTests {
    static let busName = "io.test.Fair"
    static let path = "/io/test/Fair"
    static let interface = "io.test.Fair1"

    /// A server whose `Work(s tag)` takes `workMilliseconds` and notes its tag, with the
    /// per-sender queue cap `cap`.
    static func server(on bus: PrivateBus, workMilliseconds: UInt32, cap: Int? = nil) throws -> ServerThread {
        try ServerThread(
            address: bus.address, name: busName,
            maximumQueuedBytesPerSender: cap ?? BusConnection.defaultMaximumQueuedBytesPerSender
        ) { connection, _, report in
            let work = BusMethod(
                name: "Work", inArguments: [BusArgument(name: "tag", signature: "s")],
                outArguments: [BusArgument(name: "tag", signature: "s")]
            ) { call in
                if case .string(let tag) = call.arguments[0] { report.note(tag) }
                usleep(workMilliseconds * 1000)
                return .values(call.arguments)
            }
            try connection.registerObject(
                path: path, interfaces: [BusInterface(name: interface, methods: [work])])
        }
    }

    /// A `Work` call tagged `tag`.
    static func work(_ tag: String, padding: Int = 0) throws -> BusMessage {
        let message = try BusMessage.methodCall(
            destination: busName, path: path, interface: interface, member: "Work")
        try message.append([.string(tag + String(repeating: " ", count: padding))])
        return message
    }

    /// Sends `count` calls tagged `prefix0`, `prefix1`, … without waiting; returns their serials.
    static func flood(_ connection: BusConnection, _ prefix: String, count: Int) throws -> [UInt32] {
        let serials = try (0..<count).map { try connection.send(work("\(prefix)\($0)")) }
        connection.flush()
        return serials
    }

    @Test func aFloodingClientDelaysAnotherClientByFewCallsOnly() throws {
        let bus = try PrivateBus()
        let server = try Self.server(on: bus, workMilliseconds: 10)
        defer { server.stop() }
        let flooder = try BusConnection.connect(address: bus.address)
        let prober = try BusConnection.connect(address: bus.address)
        defer {
            flooder.close()
            prober.close()
        }
        // 300 calls of 10 ms: served in arrival order, the probe would wait 3 s behind them.
        let serials = try Self.flood(flooder, "flood", count: 300)
        #expect(ServerThread.wait { server.report.notes.withLock { !$0.isEmpty } })
        let reply = try prober.call(Self.work("probe"))
        #expect(try reply.readValues() == [.string("probe")])

        #expect(ServerThread.wait(milliseconds: 20_000) { server.report.notes.withLock { $0.count == 301 } })
        let notes = server.report.notes.withLock { $0 }
        let before = notes.firstIndex(of: "probe") ?? notes.count
        // The server reads some 4 KiB (dozens of calls) per turn and serves one call per
        // client per turn: the probe passes all but the first few rounds of the flood.
        #expect(before < 100, "the probe waited behind \(before) flood calls")
        // One client's calls are served in the order it sent them, and answered in it.
        #expect(notes.filter { $0 != "probe" } == (0..<300).map { "flood\($0)" })
        var replied: [UInt32] = []
        while replied.count < serials.count, let message = flooder.readMessage(timeoutMilliseconds: 5000) {
            if message.type == .methodReturn { replied.append(message.replySerial) }
        }
        #expect(replied == serials)
    }

    @Test func twoFloodingClientsAreServedInTurn() throws {
        let bus = try PrivateBus()
        let server = try Self.server(on: bus, workMilliseconds: 5)
        defer { server.stop() }
        let first = try BusConnection.connect(address: bus.address)
        let second = try BusConnection.connect(address: bus.address)
        defer {
            first.close()
            second.close()
        }
        _ = try Self.flood(first, "a", count: 200)
        // Once the server is busy with the first client's calls, all of them ahead of the
        // second client's in the bus's stream.
        #expect(ServerThread.wait { server.report.notes.withLock { !$0.isEmpty } })
        _ = try Self.flood(second, "b", count: 200)
        #expect(ServerThread.wait(milliseconds: 20_000) { server.report.notes.withLock { $0.count == 400 } })
        let notes = server.report.notes.withLock { $0 }
        #expect(notes.filter { $0.hasPrefix("a") } == (0..<200).map { "a\($0)" })
        #expect(notes.filter { $0.hasPrefix("b") } == (0..<200).map { "b\($0)" })
        // Sent after the first client's, the second's calls are served in turn with them, not
        // after them all.
        let firstOfSecond = notes.firstIndex(of: "b0") ?? notes.count
        #expect(firstOfSecond < 100, "b0 served after \(firstOfSecond) calls")
        let lastOfFirst = notes.lastIndex(of: "a199") ?? 0
        #expect(lastOfFirst > 300, "a199 served at \(lastOfFirst), before most of b")
    }

    @Test func aClientOverItsQueueCapGetsLimitsExceeded() throws {
        let bus = try PrivateBus()
        // 50 ms per call and 8 KiB per client: a flood of 1 KiB calls overflows the queue.
        let server = try Self.server(on: bus, workMilliseconds: 50, cap: 8 << 10)
        defer { server.stop() }
        let flooder = try BusConnection.connect(address: bus.address)
        let prober = try BusConnection.connect(address: bus.address)
        defer {
            flooder.close()
            prober.close()
        }
        let serials = try (0..<100).map { try flooder.send(Self.work("f\($0)", padding: 1024)) }
        flooder.flush()
        var done: [UInt32] = []
        var refused: [String] = []
        while done.count + refused.count < serials.count,
            let message = flooder.readMessage(timeoutMilliseconds: 10_000)
        {
            if message.type == .methodReturn { done.append(message.replySerial) }
            if message.type == .error { refused.append(message.errorName ?? "") }
        }
        #expect(done.count + refused.count == serials.count)
        #expect(!done.isEmpty && !refused.isEmpty, "\(done.count) done, \(refused.count) refused")
        #expect(refused.allSatisfy { $0 == BusErrorName.limitsExceeded }, "\(refused)")
        // What was served was served in order, and another client is still served.
        #expect(done == done.sorted())
        #expect(try prober.call(Self.work("probe")).readValues() == [.string("probe")])
    }
}
