// SPDX-License-Identifier: MIT
import DBus
import Glibc
import Posix
import Testing

/// The server's `poll()` integration under load, against clients that vanish and a bus that
/// goes away.
@Suite(.serialized) struct LoopTests {
    @Test func tenThousandPipelinedCallsAreAllAnsweredInOrder() throws {
        let fixture = try EchoFixture()
        let count = 10_000
        var serials: [UInt32] = []
        serials.reserveCapacity(count)
        for index in 0..<count {
            serials.append(
                try fixture.client.send(fixture.message("EchoVariant", [.variant(.uint32(UInt32(index)))])))
        }
        fixture.client.flush()
        var replies: [UInt32] = []
        var values: [BusValue] = []
        while replies.count < count, let message = fixture.client.readMessage(timeoutMilliseconds: 10_000) {
            guard message.type == .methodReturn || message.type == .error else { continue }
            replies.append(message.replySerial)
            values.append(contentsOf: try message.readValues())
        }
        // Compared as Bools with the first difference: printing 10,000 serials helps nobody.
        #expect(replies.count == count)
        #expect(replies == serials, "first out of order: \(Self.firstDifference(replies, serials))")
        let expected: [BusValue] = (0..<count).map { .variant(.uint32(UInt32($0))) }
        #expect(values == expected, "first wrong value: \(Self.firstDifference(values, expected))")
        // Large replies must leave through the write watch: 200 replies of 256 KiB each are far
        // more than a socket buffer holds.
        let big = String(repeating: "w", count: 256 << 10)
        let bigSerials = try (0..<200).map { _ in
            try fixture.client.send(fixture.message("EchoString", [.string(big)]))
        }
        var bigReplies: [UInt32] = []
        while bigReplies.count < bigSerials.count,
            let message = fixture.client.readMessage(timeoutMilliseconds: 10_000)
        {
            guard message.type == .methodReturn else { continue }
            let intact = try message.readValues() == [.string(big)]
            #expect(intact, "reply to \(message.replySerial) is not the 256 KiB string")
            bigReplies.append(message.replySerial)
        }
        #expect(bigReplies == bigSerials)
    }

    /// Runs the client turn on `connection` until `done()` holds or `milliseconds` pass.
    static func pump(_ connection: BusConnection, milliseconds: UInt64 = 5000, until done: () -> Bool) -> Bool
    {
        let deadline = MonotonicClock.milliseconds() + milliseconds
        while MonotonicClock.milliseconds() < deadline {
            if done() { return true }
            BusPollTurn.run([connection], timeoutMilliseconds: 20)
        }
        return done()
    }

    @Test func asynchronousCallsAreAnsweredThroughTheLoop() throws {
        let fixture = try EchoFixture()
        let client = fixture.client
        var outcome: Result<BusMessage, BusError>?
        let pending = try client.call(
            fixture.message("Deferred", [.string("async")]), timeoutMilliseconds: 5000
        ) {
            outcome = $0
        }
        // The pending call's timeout is the loop's to watch.
        let wait = try #require(client.nextTimeoutMilliseconds())
        #expect(wait > 4000 && wait <= 5000)
        #expect(!pending.isCompleted)
        #expect(Self.pump(client) { outcome != nil })
        #expect(try outcome?.get().readValues() == [.string("later: async")])
        #expect(pending.isCompleted)
        #expect(client.nextTimeoutMilliseconds() == nil)

        outcome = nil
        try client.call(
            fixture.message("Fail", [.string("io.test.Echo1.Error.X"), .string("async failure")]),
            timeoutMilliseconds: 5000
        ) { outcome = $0 }
        #expect(Self.pump(client) { outcome != nil })
        guard case .failure(let error)? = outcome else {
            Issue.record("expected an error, got \(String(describing: outcome))")
            return
        }
        #expect(error == BusError(name: "io.test.Echo1.Error.X", message: "async failure"))
    }

    @Test func anAsynchronousCallTimesOutThroughHandleExpiredTimeouts() throws {
        let fixture = try EchoFixture()
        let client = fixture.client
        var outcome: Result<BusMessage, BusError>?
        // The server answers after 50 ms; the 20 ms timeout must fire first, from the loop.
        try client.call(fixture.message("Deferred", [.string("too slow")]), timeoutMilliseconds: 20) {
            outcome = $0
        }
        #expect(Self.pump(client) { outcome != nil })
        guard case .failure(let error)? = outcome else {
            Issue.record("expected NoReply, got \(String(describing: outcome))")
            return
        }
        #expect(error.name == BusErrorName.noReply)
        // The late reply is dropped, and a cancelled call never calls its handler.
        var cancelledCalled = false
        let cancelled = try client.call(
            fixture.message("Deferred", [.string("cancelled")]), timeoutMilliseconds: 5000
        ) {
            _ in cancelledCalled = true
        }
        cancelled.cancel()
        #expect(client.nextTimeoutMilliseconds() == nil)
        // A later deferred call's answer comes after both late ones have come and gone.
        var markerAnswered = false
        try client.call(fixture.message("Deferred", [.string("marker")]), timeoutMilliseconds: 5000) { _ in
            markerAnswered = true
        }
        #expect(Self.pump(client) { markerAnswered })
        #expect(!cancelledCalled)
        #expect(try fixture.call("EchoString", [.string("after")]) == [.string("after")])
    }

    /// The index where two sequences first differ, or nil.
    static func firstDifference<Element: Equatable>(_ left: [Element], _ right: [Element]) -> Int? {
        if let index = zip(left, right).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
            return index
        }
        return left.count == right.count ? nil : min(left.count, right.count)
    }

    @Test func theServerSurvivesAClientThatDisconnectsMidCall() throws {
        let fixture = try EchoFixture()
        for round in 0..<5 {
            let leaving = try BusConnection.connect(address: fixture.bus.address)
            let message = try fixture.message("Deferred", [.string("gone \(round)")])
            try leaving.send(message)
            leaving.flush()
            leaving.close()
        }
        // The deferred replies go to callers that are gone; the server carries on.
        #expect(ServerThread.wait { fixture.server.report.notes.withLock { $0.count } == 5 })
        #expect(fixture.server.report.notes.withLock { $0.allSatisfy { $0.hasPrefix("answered gone") } })
        #expect(try fixture.call("EchoString", [.string("still here")]) == [.string("still here")])
        #expect(!fixture.server.report.disconnected.withLock { $0 })
    }

    @Test func losingTheBusIsNoticedWithoutExiting() throws {
        let fixture = try EchoFixture()
        #expect(fixture.client.isConnected)
        fixture.bus.stop()
        // The server's loop sees the hang-up through its watch and leaves; the process lives on
        // (libdbus would _exit() here with exit_on_disconnect left on).
        #expect(ServerThread.wait { fixture.server.report.finished.withLock { $0 } })
        #expect(fixture.server.report.disconnected.withLock { $0 })
        // A client reading the connection gets the local Disconnected signal, then nothing.
        var last: BusMessage?
        while let message = fixture.client.readMessage(timeoutMilliseconds: 2000) { last = message }
        #expect(last?.member == "Disconnected")
        #expect(last?.interface == "org.freedesktop.DBus.Local")
        #expect(!fixture.client.isConnected)
        let error = #expect(throws: BusError.self) { _ = try fixture.call("EchoString", [.string("x")]) }
        #expect(error?.name == BusErrorName.disconnected)
    }

    @Test func aBlockingCallTimesOutWithNoReply() throws {
        let fixture = try EchoFixture()
        let start = MonotonicClock.milliseconds()
        let error = #expect(throws: BusError.self) {
            _ = try fixture.call("Deferred", [.string("slow")], timeout: 10)
        }
        #expect(error?.name == BusErrorName.noReply)
        #expect(MonotonicClock.milliseconds() - start < 2000)
        // The late reply is dropped; the connection carries on.
        #expect(try fixture.call("EchoString", [.string("next")]) == [.string("next")])
    }

    @Test func anIdleConnectionWantsOnlyItsReadWatch() throws {
        let fixture = try EchoFixture()
        let descriptors = fixture.client.pollDescriptors()
        #expect(descriptors.count == 1)
        #expect(descriptors.first.map { $0.events & Int16(POLLIN) != 0 } == true)
        #expect(descriptors.first.map { $0.events & Int16(POLLOUT) == 0 } == true)
        #expect(fixture.client.nextTimeoutMilliseconds() == nil)
        // Entries for other descriptors are ignored.
        fixture.client.handle([pollfd(fd: 0, events: Int16(POLLIN), revents: Int16(POLLIN))])
        fixture.client.handleExpiredTimeouts()
        #expect(fixture.client.isConnected)
    }

    @Test func readMessageTimesOut() throws {
        let fixture = try EchoFixture()
        // The bus greets a new connection with NameAcquired of its unique name; nothing else comes.
        var greeting: [String?] = []
        while let message = fixture.client.readMessage(timeoutMilliseconds: 200) {
            greeting.append(message.member)
        }
        #expect(greeting == ["NameAcquired"])
        let start = MonotonicClock.milliseconds()
        #expect(fixture.client.readMessage(timeoutMilliseconds: 100) == nil)
        let elapsed = MonotonicClock.milliseconds() - start
        #expect(elapsed >= 90 && elapsed < 2000)
    }
}
