// SPDX-License-Identifier: MIT
import Glibc
import Posix
import TestSupport
import Testing

@testable import DBus

/// Asynchronous calls in flight when the connection dies or is closed: every handler runs
/// once, with an error, without waiting for the call's timeout.
@Suite(.serialized) struct PendingCallTests {
    /// How many times the bus is killed: the loss happened about once in six deaths.
    static let busDeaths = 36

    /// One bus death: calls wait on a peer that never answers, more are sent right as the bus
    /// is killed, and every one that was sent must end with an error within 3 s.
    @Test func everyCallInFlightEndsWhenTheBusIsKilled() throws {
        var lost: [String] = []
        for round in 0..<Self.busDeaths {
            let bus = try PrivateBus()
            // The peer is connected but never reads: calls to it stay unanswered.
            let silent = try BusConnection.connect(address: bus.address)
            let client = try BusConnection.connect(address: bus.address)
            var outcomes: [Int: [String]] = [:]
            var sent = 0
            func send() {
                let number = sent
                do {
                    let message = try BusMessage.methodCall(
                        destination: silent.uniqueName, path: "/", interface: "org.example.Silent",
                        member: "Wait")
                    try client.call(message, timeoutMilliseconds: 120_000) { result in
                        let name: String
                        switch result {
                        case .success: name = "success"
                        case .failure(let error): name = error.name
                        }
                        outcomes[number, default: []].append(name)
                    }
                    sent += 1
                } catch {
                    // Refused at once: the connection already knew it was gone.
                }
            }
            for _ in 0..<8 { send() }
            _ = LoopTests.pump(client, milliseconds: 50) { false }
            bus.process.signal(SIGKILL)
            // Calls sent in the moments around the death, while the loop turns.
            for _ in 0..<20 {
                send()
                _ = LoopTests.pump(client, milliseconds: 1) { false }
            }
            let start = MonotonicClock.milliseconds()
            let ended = LoopTests.pump(client, milliseconds: 3000) { outcomes.count == sent }
            let took = MonotonicClock.milliseconds() - start
            if !ended {
                lost.append("round \(round): \(sent - outcomes.count) of \(sent) calls never ended")
            }
            for (number, names) in outcomes where names.count != 1 || names[0] == "success" {
                lost.append("round \(round): call \(number) ended as \(names)")
            }
            #expect(took < 3000)
            _ = bus.process.waitForExit()
            silent.close()
            client.close()
        }
        #expect(lost.isEmpty, "\(lost)")
    }

    /// Closing a connection ends its calls in flight with `Disconnected`, oldest first.
    @Test func closingEndsCallsInFlightInOrder() throws {
        let bus = try PrivateBus()
        let silent = try BusConnection.connect(address: bus.address)
        let client = try BusConnection.connect(address: bus.address)
        var order: [Int] = []
        var names: Set<String> = []
        for number in 0..<5 {
            let message = try BusMessage.methodCall(
                destination: silent.uniqueName, path: "/", interface: "org.example.Silent", member: "Wait")
            try client.call(message, timeoutMilliseconds: 120_000) { result in
                order.append(number)
                if case .failure(let error) = result { names.insert(error.name) }
            }
        }
        client.close()
        #expect(order == [0, 1, 2, 3, 4])
        #expect(names == ["org.freedesktop.DBus.Error.Disconnected"])
    }

    /// Serials are compared across their wrap at 2^32, so that calls sent just before and
    /// just after it stay in the order they were sent.
    @Test func serialsCompareAcrossTheWrap() {
        #expect(BusConnection.serial(1, isBefore: 2))
        #expect(!BusConnection.serial(2, isBefore: 1))
        #expect(BusConnection.serial(UInt32.max, isBefore: 1))
        #expect(!BusConnection.serial(1, isBefore: UInt32.max))
        #expect(!BusConnection.serial(7, isBefore: 7))
    }

    /// A cancelled call's handler never runs, even when the connection dies afterwards.
    @Test func aCancelledCallStaysSilent() throws {
        let bus = try PrivateBus()
        let silent = try BusConnection.connect(address: bus.address)
        let client = try BusConnection.connect(address: bus.address)
        var ran = false
        let message = try BusMessage.methodCall(
            destination: silent.uniqueName, path: "/", interface: "org.example.Silent", member: "Wait")
        let pending = try client.call(message, timeoutMilliseconds: 120_000) { _ in ran = true }
        pending.cancel()
        bus.process.signal(SIGKILL)
        _ = LoopTests.pump(client, milliseconds: 2000) { !client.isConnected }
        client.dispatchAll()
        #expect(!client.isConnected)
        #expect(!ran)
        #expect(pending.isCompleted)
    }
}
