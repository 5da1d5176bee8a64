// SPDX-License-Identifier: MIT
import CliptabClient
import CliptabContract
import DBus
import Glibc
import Posix

/// The table file's cost: applying the export of a 100,000-row table with one row changed
/// (`ApplyTable`) against exporting that table (`ExportTable` yaml), interleaved on the
/// release `cliptabd`, each apply checked to change exactly that one row.
enum TableFileBenchmark {
    /// Rows of the table.
    static let rows = 100_000
    /// Pairs of export and apply.
    static let pairs = 9

    /// Starts the bus and the daemon, measures, prints the table, stops both.
    static func run() throws {
        let session = try BenchSession(name: "table-file")
        let client = try BusConnection.connect(address: session.address)
        print("== table-file (release cliptabd, \(rows) rows in one section; milliseconds)")
        _ = try CliptabClient.call(
            client, "ImportTable",
            [.string("big"), .string("lines"), .string(BusBenchmark.lines(rows)), .boolean(false)])
        let export = try CliptabClient.message("ExportTable", [.string("big"), .string("yaml")])
        let exported = try client.call(export, timeoutMilliseconds: 120_000).readValues().string(at: 0)
        let target = "- row 54321 of the benchmark table\n"
        guard let range = exported.range(of: target) else {
            throw BenchmarkFailure(message: "the export has no line \(target)")
        }
        var exportTimes: [UInt64] = []
        var applyTimes: [UInt64] = []
        var wrong: [String] = []
        for pair in 0..<pairs {
            exportTimes.append(
                try BusBenchmark.timed { _ = try client.call(export, timeoutMilliseconds: 120_000) })
            let document = exported.replacingCharacters(in: range, with: "- changed \(pair)\n")
            let apply = try CliptabClient.message(
                "ApplyTable",
                [
                    .string("big"), .string(document), .uint64(0),
                    .dictionary(keySignature: "s", valueSignature: "v", []),
                ])
            var reply: BusMessage?
            applyTimes.append(
                try BusBenchmark.timed { reply = try client.call(apply, timeoutMilliseconds: 120_000) })
            if let counts = try reply.map(Self.counts), counts != ["rows_changed": 1] {
                wrong.append("apply \(pair) changed \(counts)")
            }
        }
        let exportTime = Double(exportTimes.sorted()[pairs / 2]) / 1e6
        let applyTime = Double(applyTimes.sorted()[pairs / 2]) / 1e6
        let widths = [40, 12, 22, 8, 12, 7]
        Report.row(["figure", "value", "baseline", "ratio", "goal", ""], widths)
        Report.row(
            [
                "ApplyTable, one row changed (p50)", "\(Report.number(applyTime)) ms",
                "ExportTable \(Report.number(exportTime)) ms", Report.number(applyTime / exportTime, 2),
                "<= 3x", BusBenchmark.verdict(applyTime <= 3 * exportTime && wrong.isEmpty),
            ], widths)
        print("rows changed per apply: " + (wrong.isEmpty ? "1, as it must" : wrong.joined(separator: "; ")))
        _ = session
    }

    /// The non-zero counts of an `ApplyTable` reply.
    static func counts(_ reply: BusMessage) throws -> [String: UInt32] {
        let values = try reply.readValues()
        guard values.count == 2, case .dictionary(_, _, let entries) = values[1] else { return [:] }
        var counts: [String: UInt32] = [:]
        for (key, value) in entries {
            if case .string(let name) = key, case .uint32(let count) = value, count > 0 {
                counts[name] = count
            }
        }
        return counts
    }
}

/// A benchmark that could not run as planned.
struct BenchmarkFailure: Error {
    /// Why.
    let message: String
}
