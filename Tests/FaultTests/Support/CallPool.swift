// SPDX-License-Identifier: MIT
import DBus
import Glibc
import Posix

/// Several client connections driven by one `poll()` loop on the test's thread, each with
/// any number of calls in flight: pipelined load without threads.
final class CallPool {
    /// The bus address the connections were made to.
    let address: String
    /// The connections, by slot.
    private(set) var connections: [BusConnection]
    /// The calls in flight, by slot.
    private(set) var inFlight: [Int]
    /// Bumped when a slot gets a new connection, so that late callbacks of the old one are
    /// ignored.
    private var generations: [Int]
    /// The handlers of the calls in flight, by slot and call number.
    private var handlers: [[Int: (Result<BusMessage, BusError>) -> Void]]
    private var nextCall = 0

    /// Opens `count` connections to the bus at `address`.
    init(address: String, count: Int) throws {
        self.address = address
        connections = try (0..<count).map { _ in try BusConnection.connect(address: address) }
        inFlight = Array(repeating: 0, count: count)
        generations = Array(repeating: 0, count: count)
        handlers = Array(repeating: [:], count: count)
    }

    /// The number of slots.
    var count: Int { connections.count }

    /// The calls in flight over all slots.
    var totalInFlight: Int { inFlight.reduce(0, +) }

    /// Sends `message` on slot `slot`; `handler` gets the outcome and the round trip in
    /// microseconds, from a later `turn`.
    func send(
        _ slot: Int, _ message: BusMessage, timeout: Int32 = 120_000,
        handler: @escaping (Result<BusMessage, BusError>, UInt64) -> Void
    ) throws {
        let start = MonotonicClock.nanoseconds()
        let generation = generations[slot]
        let number = nextCall
        nextCall += 1
        handlers[slot][number] = { result in handler(result, (MonotonicClock.nanoseconds() - start) / 1000) }
        inFlight[slot] += 1
        // Weak: closing a connection completes its calls in flight with `Disconnected`, and the
        // pool's own connections close while the pool is being destroyed.
        try connections[slot].call(message, timeoutMilliseconds: timeout) { [weak self] result in
            guard let self, self.generations[slot] == generation,
                let handler = self.handlers[slot].removeValue(forKey: number)
            else { return }
            self.inFlight[slot] -= 1
            handler(result)
        }
    }

    /// Sends `message` on slot `slot` without asking for a reply.
    func sendWithoutReply(_ slot: Int, _ message: BusMessage) throws {
        try message.setNoReplyExpected(true)
        try connections[slot].send(message)
    }

    /// Closes slot `slot`'s connection, calls in flight and all, and opens a new one; the
    /// old calls' handlers never run.
    func reconnect(_ slot: Int) throws {
        // Closing completes the calls in flight with `Disconnected` at once; the slot forgets
        // them first, since the caller counts them as abandoned, not as failed.
        generations[slot] += 1
        inFlight[slot] = 0
        handlers[slot] = [:]
        connections[slot].close()
        connections[slot] = try BusConnection.connect(address: address)
    }

    /// One turn of the loop: delivers what arrived, then waits at most `milliseconds` for
    /// any connection to become ready, reads and writes, and delivers again.
    func turn(milliseconds: Int32 = 50) {
        BusPollTurn.run(connections, timeoutMilliseconds: milliseconds)
        for slot in connections.indices where !connections[slot].isConnected && !handlers[slot].isEmpty {
            abandon(slot)
        }
    }

    /// Fails the calls in flight on a connection that the bus dropped.
    ///
    /// libdbus usually completes them with an error when it delivers `Disconnected`, but
    /// now and then (about one bus death in six here) a call sent just before it stays
    /// pending for good, with no timeout left to end it; the pool then ends it itself.
    private func abandon(_ slot: Int) {
        generations[slot] += 1
        let lost = handlers[slot].sorted { $0.key < $1.key }.map(\.value)
        handlers[slot] = [:]
        inFlight[slot] = 0
        let error = BusError(
            name: "org.freedesktop.DBus.Error.Disconnected",
            message: "the connection was lost before a reply came")
        for handler in lost { handler(.failure(error)) }
    }

    /// Turns the loop until `condition` holds or `milliseconds` pass; returns `condition`.
    @discardableResult
    func run(milliseconds: Int, until condition: () -> Bool) -> Bool {
        let deadline = MonotonicClock.milliseconds() + UInt64(milliseconds)
        while !condition() {
            if MonotonicClock.milliseconds() >= deadline { return condition() }
            turn(milliseconds: 20)
        }
        return true
    }

    /// Turns the loop until no call is in flight (at most `milliseconds`); false on timeout.
    @discardableResult
    func drain(milliseconds: Int = 120_000) -> Bool {
        run(milliseconds: milliseconds) { totalInFlight == 0 }
    }
}

/// Latencies in microseconds, for percentiles.
struct Latencies {
    /// Every sample.
    private(set) var samples: [UInt64] = []

    /// Adds a sample.
    mutating func add(_ microseconds: UInt64) { samples.append(microseconds) }

    /// The `fraction` percentile (0.99 for p99) in milliseconds.
    func percentile(_ fraction: Double) -> Double {
        guard !samples.isEmpty else { return 0 }
        let sorted = samples.sorted()
        let index = min(sorted.count - 1, Int(Double(sorted.count) * fraction))
        return Double(sorted[index]) / 1000
    }

    /// The largest sample in milliseconds.
    var maximum: Double { Double(samples.max() ?? 0) / 1000 }
}
