// SPDX-License-Identifier: MIT
import CliptabClient
import DBus
import Posix
import TestSupport

/// The load goal that `swift test` no longer times: eight clients, two calls in flight each,
/// a mix of 75 % reads and 25 % changes on one table (each change waits for its fsync), and
/// the 99th percentile of the round trips at most 250 ms.
///
/// The baseline, run first by the same clients on the same daemon, is
/// `org.freedesktop.DBus.Peer.Ping` at the same depth: the bus and the daemon's loop without
/// cliptab's work, so the ratio is what the calls themselves cost under load.
enum LoadBenchmark {
    /// Calls per phase over all clients.
    static let calls = 40_000
    /// The goal on the mix's 99th percentile, in milliseconds.
    static let p99GoalMilliseconds = 250.0

    /// Runs the baseline and the mix and prints their percentiles and ratios.
    static func run() throws {
        let session = try BenchSession(name: "load")
        let control = try BusConnection.connect(address: session.address)
        let cliptab = session.cliptab(control)
        try cliptab.createTable("soak")
        for section in 0..<4 {
            if section > 0 { _ = try cliptab.insertSection("soak", at: -1, header: "", footer: "") }
            let texts = (0..<SoakBenchmark.rowsPerSection).map { "row \($0) of \(section)" }
            try cliptab.insertRows(TableCell("soak", section: Int32(section), row: 0), texts)
        }
        print(
            "== load (release cliptabd; \(SoakBenchmark.clients) clients x \(SoakBenchmark.depth) in flight, "
                + "\(calls) calls a phase)")
        let pool = try SoakPool(address: session.address, count: SoakBenchmark.clients)
        let ping = try phase(pool) { _ in
            try CliptabClient.message("Ping", interface: "org.freedesktop.DBus.Peer")
        }
        let counts = Array(repeating: SoakBenchmark.rowsPerSection, count: 4)
        let mix = try phase(pool) { generator in try SoakBenchmark.nextCall(counts: counts, &generator) }
        let widths = [22, 10, 10, 10, 10]
        Report.row(["phase", "p50 ms", "p99 ms", "max ms", "errors"], widths)
        for (name, figures) in [("Ping (baseline)", ping), ("mixed calls", mix)] {
            Report.row(
                [
                    name, Report.number(figures.p50, 2), Report.number(figures.p99, 2),
                    Report.number(figures.max, 2),
                    "\(figures.errors)",
                ], widths)
        }
        let ratio = ping.p99 > 0 ? mix.p99 / ping.p99 : 0
        print(
            "mix p99 / Ping p99: \(Report.number(ratio, 1)); goal p99 <= \(Int(p99GoalMilliseconds)) ms: "
                + (mix.p99 <= p99GoalMilliseconds ? "met" : "MISSED"))
    }

    /// The round trips of one phase, in milliseconds, and the calls refused for other
    /// reasons than a stale index.
    struct Figures {
        let p50: Double
        let p99: Double
        let max: Double
        let errors: Int
    }

    /// Keeps every client `SoakBenchmark.depth` calls deep in calls made by `next` until
    /// `calls` were answered.
    static func phase(_ pool: SoakPool, _ next: (inout SeededRandom) throws -> BusMessage) throws -> Figures {
        var generator = SeededRandom("load phase")
        var sent = 0
        var samples: [UInt64] = []
        var errors = 0
        while sent < calls {
            for slot in 0..<SoakBenchmark.clients
            where pool.inFlight[slot] < SoakBenchmark.depth && sent < calls {
                sent += 1
                try pool.send(slot, try next(&generator)) { error, microseconds in
                    samples.append(microseconds)
                    if let error, !error.hasSuffix("IndexOutOfRange") { errors += 1 }
                }
            }
            pool.turn()
        }
        pool.drain()
        samples.sort()
        func at(_ fraction: Double) -> Double {
            samples.isEmpty
                ? 0 : Double(samples[min(samples.count - 1, Int(Double(samples.count) * fraction))]) / 1000
        }
        return Figures(p50: at(0.5), p99: at(0.99), max: Double(samples.last ?? 0) / 1000, errors: errors)
    }
}
