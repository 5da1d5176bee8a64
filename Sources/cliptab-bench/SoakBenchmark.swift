// SPDX-License-Identifier: MIT
import CliptabClient
import CliptabContract
import CliptabCore
import DBus
import Glibc
import Posix
import TestSupport

/// The soak run: eight clients keep a cliptabd busy for some minutes (5 unless
/// `CLIPTAB_SOAK_MINUTES` says otherwise) while its resident memory is sampled.
///
/// The daemon is the `cliptabd` built beside this benchmark, on a private dbus-daemon and a
/// fresh data directory. Every 10 s a line gives the calls made, their rate, the 99th
/// percentile of their round trips, and the daemon's RSS; at the end the RSS after the first
/// minute is compared with the last sample.
enum SoakBenchmark {
    /// Clients, each on its own connection.
    static let clients = 8
    /// Calls each client keeps in flight.
    static let depth = 2
    /// Rows per section around which the table is kept.
    static let rowsPerSection = 250
    /// The goal: RSS growth from the end of the first minute to the end, in KiB.
    static let growthGoalKiB = 8 * 1024

    /// Runs the soak and prints its samples and verdict.
    static func run() throws {
        let minutes = getenv("CLIPTAB_SOAK_MINUTES").flatMap { Double(String(cString: $0)) } ?? 5
        let session = try BenchSession(name: "soak")
        let address = session.address
        let daemon = session.daemon
        let daemonPath = session.process.executable
        let control = try BusConnection.connect(address: address)
        try CliptabClient.call(control, "CreateTable", [.string("soak")])
        for section in 0..<4 {
            if section > 0 {
                try CliptabClient.call(
                    control, "InsertSection", [.string("soak"), .int32(-1), .string(""), .string("")])
            }
            let texts = (0..<rowsPerSection).map { BusValue.string("row \($0) of section \(section)") }
            try CliptabClient.call(
                control, "InsertRows",
                [.string("soak"), .int32(Int32(section)), .int32(0), .array(elementSignature: "s", texts)])
        }

        print(
            "== soak (\(clients) clients x \(depth) calls in flight, \(minutes) min, cliptabd at \(daemonPath))"
        )
        print("goal: RSS after the first minute grows by <= \(growthGoalKiB / 1024) MiB to the end")
        print("(stale: calls refused for an index that another client's change made stale)")
        Report.row(
            ["elapsed s", "calls", "calls/s", "p99 ms", "stale", "errors", "RSS KiB"],
            [10, 10, 9, 8, 8, 8, 10])
        let pool = try SoakPool(address: address, count: clients)
        var counts = Array(repeating: rowsPerSection, count: 4)
        // Seeded, so that a run that finds a problem can be repeated (CLIPTAB_TEST_SEED).
        var generator = SeededRandom("soak")
        var calls = 0
        var errors = 0
        var stale = 0
        var interval: [UInt64] = []
        var samples: [(seconds: Int, resident: Int)] = []
        let start = MonotonicClock.milliseconds()
        let end = start + UInt64(minutes * 60_000)
        var nextSample = start + 10_000
        var nextRefresh = start + 1000
        while MonotonicClock.milliseconds() < end {
            for slot in 0..<clients where pool.inFlight[slot] < depth {
                let message = try nextCall(counts: counts, &generator)
                calls += 1
                try pool.send(slot, message) { error, microseconds in
                    interval.append(microseconds)
                    if error == CliptabBus.errorPrefix + "IndexOutOfRange" {
                        stale += 1
                    } else if let error {
                        errors += 1
                        if errors <= 5 { print("error: \(error)") }
                    }
                }
            }
            pool.turn()
            let now = MonotonicClock.milliseconds()
            if now >= nextRefresh {
                nextRefresh = now + 1000
                if case .array(_, let sections)? = try CliptabClient.call(
                    control, "GetSections", [.string("soak")]
                ).first {
                    counts = sections.map {
                        if case .structure(let fields) = $0, case .uint32(let rows) = fields[2] {
                            return Int(rows)
                        }
                        return 0
                    }
                }
            }
            if now >= nextSample {
                nextSample += 10_000
                let seconds = Int((now - start) / 1000)
                let resident = residentKiB(daemon.pid)
                samples.append((seconds, resident))
                interval.sort()
                let p99 =
                    interval.isEmpty
                    ? 0 : Double(interval[min(interval.count - 1, interval.count * 99 / 100)]) / 1000
                Report.row(
                    [
                        "\(seconds)", "\(calls)", "\(interval.count / 10)", Report.number(p99, 2), "\(stale)",
                        "\(errors)", "\(resident)",
                    ], [10, 10, 9, 8, 8, 8, 10])
                interval = []
            }
        }
        pool.drain()
        guard let first = samples.first(where: { $0.seconds >= 60 }) ?? samples.first, let last = samples.last
        else {
            print("too short for a verdict: run at least 20 s")
            return
        }
        let growth = last.resident - first.resident
        print(
            "RSS at \(first.seconds) s: \(first.resident) KiB; at \(last.seconds) s: \(last.resident) KiB; "
                + "growth \(growth) KiB (goal <= \(growthGoalKiB) KiB: \(growth <= growthGoalKiB ? "met" : "MISSED"))"
        )
    }

    /// One call of the mix: 70 % reads, the rest changes that keep each section near its size.
    ///
    /// Indexes come from counts refreshed every second, so a few may be stale (and refused), as
    /// for real clients.
    static func nextCall(counts: [Int], _ generator: inout SeededRandom) throws -> BusMessage {
        let section = Int.random(in: 0..<counts.count, using: &generator)
        let rows = max(counts[section], 1)
        let row = Int32(Int.random(in: 0..<rows, using: &generator))
        let table = BusValue.string("soak")
        let s = BusValue.int32(Int32(section))
        switch Int.random(in: 0..<100, using: &generator) {
        case 0..<35: return try CliptabClient.message("GetCell", [table, s, .int32(row)])
        case 35..<55:
            return try CliptabClient.message("GetRows", [table, s, .uint32(UInt32(row)), .uint32(25)])
        case 55..<65: return try CliptabClient.message("GetSections", [table])
        case 65..<70: return try CliptabClient.message("ExportTable", [table, .string("json")])
        case 70..<80:
            return counts[section] > rowsPerSection
                ? try CliptabClient.message("DeleteRow", [table, s, .int32(row)])
                : try CliptabClient.message(
                    "InsertRow", [table, s, .int32(row), .string("inserted \(generator.next() % 1000)")])
        case 80..<90:
            return try CliptabClient.message(
                "SetCell", [table, s, .int32(row), .string("set \(generator.next() % 1000)")])
        default:
            let target = Int32(Int.random(in: 0..<max(rows - 1, 1), using: &generator))
            return try CliptabClient.message("MoveRow", [table, s, .int32(row), s, .int32(target)])
        }
    }

    /// VmRSS of process `pid` in KiB.
    static func residentKiB(_ pid: pid_t) -> Int {
        guard let file = fopen("/proc/\(pid)/status", "r") else { return 0 }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if text.hasPrefix("VmRSS:") { return Int(text.split(separator: " ")[1]) ?? 0 }
        }
        return 0
    }

}

/// Client connections driven from one `poll()` loop, each with calls in flight.
final class SoakPool {
    private let connections: [BusConnection]
    /// Calls in flight, by connection.
    private(set) var inFlight: [Int]

    /// Opens `count` connections to the bus at `address`.
    init(address: String, count: Int) throws {
        connections = try (0..<count).map { _ in try BusConnection.connect(address: address) }
        inFlight = Array(repeating: 0, count: count)
    }

    /// Sends `message` on connection `slot`; `done` gets the error name if it failed, and its round
    /// trip in microseconds.
    func send(_ slot: Int, _ message: BusMessage, done: @escaping (String?, UInt64) -> Void) throws {
        let start = MonotonicClock.nanoseconds()
        inFlight[slot] += 1
        // Weak: the connections complete their calls in flight as they close, which they do
        // while this object is being destroyed.
        try connections[slot].call(message, timeoutMilliseconds: 60_000) { [weak self] result in
            guard let self else { return }
            self.inFlight[slot] -= 1
            var error: String?
            if case .failure(let failure) = result { error = failure.name }
            done(error, (MonotonicClock.nanoseconds() - start) / 1000)
        }
    }

    /// Reads, writes and delivers replies, waiting at most 20 ms.
    func turn() {
        BusPollTurn.run(connections, timeoutMilliseconds: 20)
    }

    /// Turns until no call is in flight (at most 60 s).
    func drain() {
        let deadline = MonotonicClock.milliseconds() + 60_000
        while inFlight.reduce(0, +) > 0 && MonotonicClock.milliseconds() < deadline { turn() }
    }
}
