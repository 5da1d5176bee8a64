// SPDX-License-Identifier: MIT
import CliptabClient
import CliptabContract
import DBus
import Glibc
import Posix

/// Linked tables' costs on the release `cliptabd`: a one-row `cliptab add` to a linked table
/// of 10,000 rows (its file rewritten and synced before the reply) against the same add to
/// an unlinked table of 10,000 rows, interleaved; and the time from a change saved to the
/// linked file (by rename, as editors save) until `GetCell` answers the new text.
enum LinkedBenchmark {
    /// Rows of each table.
    static let rows = 10_000
    /// Pairs of adds.
    static let pairs = 21
    /// Changes saved to the file.
    static let saves = 9

    /// Starts the bus and the daemon, measures, prints the table, stops both.
    static func run() throws {
        let session = try BenchSession(name: "linked")
        let client = try BusConnection.connect(address: session.address)
        let cliptab = try BenchSession.binary("cliptab")
        let environment = session.environment
        print("== linked (release cliptabd, \(rows)-row tables; milliseconds)")
        let data = BusBenchmark.lines(rows)
        for table in ["plain", "linked"] {
            _ = try session.cliptab(client).importTable(table, format: "lines", data: data, replace: false)
        }
        let linked = try session.cliptab(client).linkTable("linked", file: nil)
        func add(_ table: String, _ index: Int) throws {
            let result = try ChildProcess.run(
                cliptab, ["add", table, "added row \(index)"], environment: environment)
            guard result.termination == .exited(0) else {
                throw BenchmarkFailure(message: "cliptab add \(table) failed: \(result.errorText)")
            }
        }
        var index = 0
        let (linkedAdd, plainAdd) = try Measure.paired(pairs, baseline: { try add("plain", index) }) { _ in
            try add("linked", index)
            index += 1
        }
        let text = String(decoding: try FileContents.read(linked, limit: 64 << 20), as: UTF8.self)
        guard text.contains("- added row \(pairs - 1)\n") else {
            throw BenchmarkFailure(message: "the linked file lacks the rows added")
        }

        var seen: [UInt64] = []
        var current = text
        for save in 0..<saves {
            let row = 1000 + save * 997
            let old = "- row \(row) of the benchmark table\n"
            let new = "- row \(row) saved in an editor\n"
            guard let range = current.range(of: old) else {
                throw BenchmarkFailure(message: "the file has no line \(old)")
            }
            current.replaceSubrange(range, with: new)
            let start = MonotonicClock.nanoseconds()
            try FileContents.replace(linked + ".tmp-editor", with: Array(current.utf8))
            guard rename(linked + ".tmp-editor", linked) == 0 else {
                throw BenchmarkFailure(message: "rename failed: \(String(cString: strerror(errno)))")
            }
            let deadline = MonotonicClock.milliseconds() + 10_000
            while true {
                let cell = try session.cliptab(client).cell(TableCell("linked", section: 0, row: Int32(row)))
                if cell == "row \(row) saved in an editor" { break }
                guard MonotonicClock.milliseconds() < deadline else {
                    throw BenchmarkFailure(message: "the change to row \(row) did not arrive within 10 s")
                }
                usleep(1000)
            }
            seen.append(MonotonicClock.nanoseconds() - start)
        }
        let check = try ChildProcess.run(cliptab, ["get", "linked", "0:1000"], environment: environment)
        let arrival = Double(seen.sorted()[saves / 2]) / 1e6
        let widths = [44, 12, 26, 8, 10, 7]
        Report.row(["figure", "value", "baseline", "ratio", "goal", ""], widths)
        Report.row(
            [
                "cliptab add, linked 10,000 rows (p50)", "\(Report.number(linkedAdd / 1000)) ms",
                "unlinked \(Report.number(plainAdd / 1000)) ms", Report.number(linkedAdd / plainAdd, 2),
                "<= 2x",
                BusBenchmark.verdict(linkedAdd <= 2 * plainAdd),
            ], widths)
        Report.row(
            [
                "saved file -> GetCell (p50 of \(saves))", "\(Report.number(arrival)) ms",
                "max \(Report.number(Double(seen.max() ?? 0) / 1e6)) ms", "",
                "<= 250 ms", BusBenchmark.verdict(arrival <= 250),
            ], widths)
        print("cliptab get after the saves: " + check.outputText.debugDescription)
        _ = session
        // The same adds with `[store] durability = normal`: neither the store nor the file is
        // synced, which shows what the syncs of the file cost.
        let normal = try BenchSession(name: "linked-normal", daemonArguments: ["--durability", "normal"])
        let normalClient = try BusConnection.connect(address: normal.address)
        for table in ["plain", "linked"] {
            _ = try normal.cliptab(normalClient).importTable(
                table, format: "lines", data: data, replace: false)
        }
        _ = try normal.cliptab(normalClient).linkTable("linked", file: nil)
        func addNormal(_ table: String, _ index: Int) throws {
            let result = try ChildProcess.run(
                cliptab, ["add", table, "added row \(index)"], environment: normal.environment)
            guard result.termination == .exited(0) else {
                throw BenchmarkFailure(message: "cliptab add \(table) failed: \(result.errorText)")
            }
        }
        var normalIndex = 0
        let (linkedNormal, plainNormal) = try Measure.paired(
            pairs, baseline: { try addNormal("plain", normalIndex) }
        ) { _ in
            try addNormal("linked", normalIndex)
            normalIndex += 1
        }
        Report.row(
            [
                "same, durability normal (p50)", "\(Report.number(linkedNormal / 1000)) ms",
                "unlinked \(Report.number(plainNormal / 1000)) ms",
                Report.number(linkedNormal / plainNormal, 2),
                "", "",
            ], widths)
        _ = normal
    }
}
