// SPDX-License-Identifier: MIT
import CliptabCore
import CliptabStore
import Glibc
import Posix

/// The store's cost: single-row operations and opening the store at 1k, 100k and 1M rows,
/// persistence included, against a bare one-row SQLite commit with the same settings.
enum StoreBenchmark {
    static let sizes = [1_000, 100_000, 1_000_000]
    static let repetitions = 41

    static func run() throws {
        let base = String(cString: getenv("TMPDIR") ?? strdup("/tmp"))
        var template = Array("\(base)/cliptab-bench.XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw CliptabError(.storageFailure, "mkdtemp failed under \(base)")
        }
        let root = String(cString: made)
        defer { _ = try? ChildProcess.run("rm", ["-rf", root]) }

        print("== store (synchronous=FULL, WAL; medians of \(repetitions) runs, microseconds)")
        let bare = try BareCommit(directory: root + "/bare")
        print("baseline: a bare one-row SQLite commit, timed alternately with each operation")
        print("goals: ratio 1M/1k <= 2 for single-row operations; single-row op <= 1.3x bare commit;")
        print("       open of 1,000,000 rows <= 1.5 s; <= 120 bytes of memory per row beyond its text")
        var results: [String: [Int: Double]] = [:]
        var baselines: [String: [Int: Double]] = [:]
        var openTimes: [Int: Double] = [:]
        var bytesPerRow: [Int: Double] = [:]
        let operations = [
            "insert", "delete", "move within", "move across", "set cell", "delete-where (1 row)",
        ]
        for size in sizes {
            let directory = "\(root)/n\(size)"
            try populate(directory: directory, rows: size)
            // Opening is measured in a fresh process, so that memory freed by the population
            // step cannot hide the memory the load takes.
            let probe = try ChildProcess.run(
                selfPath(), ["--probe-open", directory], timeoutMilliseconds: 120_000)
            let figures = probe.outputText.split(separator: " ").compactMap {
                Double($0.filter { $0 != "\n" })
            }
            guard figures.count == 2 else {
                throw CliptabError(.storageFailure, "open probe failed: \(probe.errorText)")
            }
            openTimes[size] = figures[0]
            bytesPerRow[size] = figures[1]
            let (store, catalog) = try SQLiteStore.open(directory: directory)
            // The table is at the default row limit; the benchmark needs room for its inserts.
            var limits = Limits.defaults
            limits.maxRowsPerTable = 2 * size
            let service = TableService(
                catalog: catalog, persistence: store, limits: limits, announce: { _, _ in })
            var timings: [String: (subject: Double, baseline: Double)] = [:]
            timings["insert"] = try Measure.paired(repetitions, baseline: bare.commit) { index in
                try service.insertRow(
                    "bench", section: 0, row: Int32(size / 4 + index), text: "inserted \(index)")
            }
            timings["delete"] = try Measure.paired(repetitions, baseline: bare.commit) { index in
                try service.deleteRow("bench", section: 0, row: Int32(size / 4 + index))
            }
            timings["move within"] = try Measure.paired(repetitions, baseline: bare.commit) { index in
                try service.moveRow("bench", from: (0, Int32(size / 8)), to: (0, Int32(size / 3)))
            }
            timings["move across"] = try Measure.paired(repetitions, baseline: bare.commit) { index in
                let from: Int32 = index % 2 == 0 ? 0 : 1
                try service.moveRow("bench", from: (from, Int32(size / 8)), to: (1 - from, Int32(size / 3)))
            }
            timings["set cell"] = try Measure.paired(repetitions, baseline: bare.commit) { index in
                try service.setCell("bench", section: 1, row: Int32(size / 5), text: "edited \(index)")
            }
            timings["delete-where (1 row)"] = try Measure.paired(repetitions, baseline: bare.commit) {
                index in
                try service.insertRow("bench", section: 0, row: 0, text: "marker")
                _ = try service.deleteWhere("bench", op: "equals", operand: "marker", dryRun: false)
            }
            for (name, value) in timings {
                results[name, default: [:]][size] = value.subject
                baselines[name, default: [:]][size] = value.baseline
            }
        }
        let widths = [22, 10, 10, 10, 10, 9, 10, 8]
        Report.row(["operation", "1k", "100k", "1M", "bare@1M", "1M/1k", "1M/bare", "goal"], widths)
        for name in operations {
            let row = results[name] ?? [:]
            let small = row[1_000] ?? 0
            let large = row[1_000_000] ?? 0
            let bareLarge = baselines[name]?[1_000_000] ?? 1
            let verdict = large / small <= 2 && large / bareLarge <= 1.3 ? "met" : "MISSED"
            Report.row(
                [
                    name, Report.number(small), Report.number(row[100_000] ?? 0), Report.number(large),
                    Report.number(bareLarge),
                    Report.number(large / small, 2), Report.number(large / bareLarge, 2),
                    name.hasPrefix("delete-where") ? "(info)" : verdict,
                ], widths)
        }
        print("note: delete-where (1 row) also inserts the marker row it deletes, and scans every row")
        for size in sizes {
            let open = openTimes[size] ?? 0
            let memory = bytesPerRow[size] ?? 0
            print(
                "open \(size) rows: \(Report.number(open, 0)) ms; memory beyond text: \(Report.number(memory, 0)) bytes/row"
                    + (size == 1_000_000
                        ? " (goal <= 1500 ms: \(open <= 1500 ? "met" : "MISSED"); <= 120 B/row: \(memory <= 120 ? "met" : "MISSED"))"
                        : ""))
        }
    }

    /// The open probe: opens the store in `directory` and prints the milliseconds it took
    /// and the resident bytes per row it added beyond the rows' text.
    static func probeOpen(directory: String) throws {
        let before = Measure.residentBytes()
        let start = MonotonicClock.nanoseconds()
        let (store, catalog) = try SQLiteStore.open(directory: directory)
        let milliseconds = Double(MonotonicClock.nanoseconds() - start) / 1e6
        var rows = 0
        var textBytes = 0
        for table in catalog.tables.values {
            for section in table.sections {
                rows += section.rows.count
                for row in section.rows { textBytes += row.text.utf8.count }
            }
        }
        let perRow = Double(Measure.residentBytes() - before - textBytes) / Double(max(rows, 1))
        print("\(milliseconds) \(perRow)")
        withExtendedLifetime((store, catalog)) {}
    }

    /// The path of this executable.
    static func selfPath() -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        return count > 0
            ? String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            : CommandLine.arguments[0]
    }

    /// Writes a store with `rows` rows in two sections of one table "bench".
    static func populate(directory: String, rows: Int) throws {
        let (store, catalog) = try SQLiteStore.open(directory: directory)
        let service = TableService(catalog: catalog, persistence: store, announce: { _, _ in })
        var data = "## first\n"
        for index in 0..<rows / 2 { data += "row \(index) of the first section\n" }
        data += "## second\n"
        for index in 0..<(rows - rows / 2) { data += "row \(index) of the second section\n" }
        _ = try service.importTable("bench", format: "lines", data: data, replace: true)
    }

    /// A bare one-row SQLite commit with the store's settings: the baseline.
    final class BareCommit {
        let database: SQLiteDatabase
        var count = 0

        init(directory: String) throws {
            _ = try SQLiteStore.open(directory: directory)
            database = try SQLiteDatabase.open(path: directory + "/bare.db", create: true)
            _ = try database.text("PRAGMA journal_mode=WAL")
            try database.execute(
                "PRAGMA synchronous=FULL; CREATE TABLE IF NOT EXISTS t(id INTEGER PRIMARY KEY, text TEXT)")
        }

        /// Commits one row.
        func commit() throws {
            count += 1
            // Prepared statements, as the store uses them.
            try database.statement("BEGIN IMMEDIATE").run([])
            try database.statement("INSERT INTO t(text) VALUES (?)").run([.text("bare \(count)")])
            try database.statement("COMMIT").run([])
        }
    }
}
