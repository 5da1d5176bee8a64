// SPDX-License-Identifier: MIT
import CliptabClient
import CliptabContract
import CliptabCore
import DBus
import Glibc
import Posix

/// The bus's cost: the release `cliptabd` beside this benchmark on a private session bus,
/// called from one client and measured against `org.freedesktop.DBus.Peer.Ping` to the same
/// daemon in the same run (libdbus answers Ping itself, so the ratio is cliptab's own cost
/// over the bus) and against a bare SQLite commit.
enum BusBenchmark {
    /// The daemon's bus name and interface.
    static let name = CliptabBus.name
    /// The daemon's object path.
    static let path = CliptabBus.path

    /// Sequential round trips of each kind, interleaved.
    static let roundTrips = 4001
    /// Durable inserts.
    static let inserts = 301
    /// Calls sent before any reply is read.
    static let pipelined = 100_000
    /// Rows of the section that `GetRows` pages through, and the rows of one page.
    static let bigSection = 100_000
    /// Rows asked for per `GetRows` call (some 1.2 MB per reply).
    static let pageRows: UInt32 = 25_000
    /// Full paged reads of the big section.
    static let pagedReads = 21

    /// Starts the bus and the daemon, measures, prints the table, stops both.
    static func run() throws {
        let session = try BenchSession(name: "bus")
        let daemon = session.daemon
        let client = try BusConnection.connect(address: session.address)

        print("== bus (release cliptabd on a private dbus-daemon --session, one client; microseconds)")
        // Idle memory first, before the larger tables below exist.
        _ = try CliptabClient.call(
            client, "ImportTable",
            [.string("bench"), .string("lines"), .string(lines(10_000)), .boolean(false)])
        sleep(1)
        let rss = memoryKiB(of: daemon.pid)
        let anonymous = memoryKiB(of: daemon.pid, "RssAnon")
        let fileBacked = memoryKiB(of: daemon.pid, "RssFile")

        // Sequential GetCell against Ping, interleaved so that both see the same machine.
        var pings: [UInt64] = []
        var cells: [UInt64] = []
        for index in 0..<roundTrips {
            let ping = try CliptabClient.message("Ping", interface: "org.freedesktop.DBus.Peer")
            let cell = try CliptabClient.message(
                "GetCell", [.string("bench"), .int32(0), .int32(Int32(index % 10_000))])
            pings.append(try timed { _ = try client.call(ping) })
            cells.append(try timed { _ = try client.call(cell) })
        }
        let ping = median(pings)
        let getCell = median(cells)

        // Durable inserts (synchronous=FULL) against Ping plus a bare SQLite commit, the three
        // interleaved: the disk's flush time drifts with the machine's other writers.
        let bareCommit = try StoreBenchmark.BareCommit(directory: session.root + "/bare")
        var bareTimes: [UInt64] = []
        var insertPings: [UInt64] = []
        var insertTimes: [UInt64] = []
        for index in 0..<inserts {
            let ping = try CliptabClient.message("Ping", interface: "org.freedesktop.DBus.Peer")
            let insert = try CliptabClient.message(
                "InsertRow",
                [.string("bench"), .int32(0), .int32(Int32(5_000 + index)), .string("inserted \(index)")])
            bareTimes.append(try timed { try bareCommit.commit() })
            insertPings.append(try timed { _ = try client.call(ping) })
            insertTimes.append(try timed { _ = try client.call(insert) })
        }
        let bare = median(bareTimes)
        let insertPing = median(insertPings)
        let insert = median(insertTimes)

        // Pipelined GetCell: every call sent before the first reply is read.
        var messages: [BusMessage] = []
        messages.reserveCapacity(pipelined)
        for index in 0..<pipelined {
            messages.append(
                try CliptabClient.message(
                    "GetCell", [.string("bench"), .int32(0), .int32(Int32(index % 10_000))]))
        }
        let pipelineStart = MonotonicClock.nanoseconds()
        var serials: [UInt32] = []
        serials.reserveCapacity(pipelined)
        for message in messages { serials.append(try client.send(message)) }
        var answered = 0
        var inOrder = true
        var errors = 0
        while answered < pipelined {
            guard let reply = client.readMessage(timeoutMilliseconds: 30_000) else { break }
            guard reply.type == .methodReturn || reply.type == .error else { continue }
            if reply.replySerial != serials[answered] { inOrder = false }
            if reply.type == .error { errors += 1 }
            answered += 1
        }
        let pipelineSeconds = Double(MonotonicClock.nanoseconds() - pipelineStart) / 1e9
        messages.removeAll()
        let rate = Double(answered) / pipelineSeconds

        // GetRows of a 100,000-row section, paged within the bus's message limits.
        _ = try CliptabClient.call(
            client, "ImportTable",
            [.string("big"), .string("lines"), .string(lines(bigSection)), .boolean(false)])
        var pagedTimes: [UInt64] = []
        var pagedRows = 0
        for _ in 0..<pagedReads {
            var rows = 0
            pagedTimes.append(
                try timed {
                    var offset: UInt32 = 0
                    while true {
                        // Read as the CLI's `show` reads it: straight into (id, text) pairs.
                        let page = try client.call(
                            CliptabClient.message(
                                "GetRows", [.string("big"), .int32(0), .uint32(offset), .uint32(pageRows)]),
                            timeoutMilliseconds: 60_000
                        ).readIDTextArray()
                        guard !page.isEmpty else { break }
                        rows += page.count
                        offset += UInt32(page.count)
                        if page.count < Int(pageRows) { break }
                    }
                })
            pagedRows = rows
        }
        let paged = median(pagedTimes)

        let widths = [34, 12, 24, 10, 16, 7]
        Report.row(["figure", "value", "baseline", "ratio", "goal", ""], widths)
        Report.row(
            [
                "GetCell p50 (sequential)", "\(Report.number(getCell)) us", "Ping \(Report.number(ping)) us",
                Report.number(getCell / ping, 2), "<= 1.15x Ping", verdict(getCell <= 1.15 * ping),
            ], widths)
        let insertGoal = insertPing + 1.3 * bare
        Report.row(
            [
                "InsertRow p50 (durable)", "\(Report.number(insert)) us",
                "Ping \(Report.number(insertPing)) + bare \(Report.number(bare))",
                Report.number(insert / insertGoal, 2),
                "<= Ping+1.3xbare", verdict(insert <= insertGoal),
            ], widths)
        Report.row(
            [
                "pipelined GetCell", "\(Report.number(rate, 0))/s", "\(answered) of \(pipelined) answered",
                "",
                ">= 25000/s", verdict(rate >= 25_000 && answered == pipelined && inOrder && errors == 0),
            ], widths)
        print(
            "    in order: \(inOrder ? "yes" : "NO"); error replies: \(errors); \(Report.number(pipelineSeconds, 3)) s"
        )
        Report.row(
            [
                "GetRows 100k rows (paged)", "\(Report.number(paged / 1000)) ms",
                "\(pagedRows) rows, pages of \(pageRows)", "", "<= 150 ms",
                verdict(paged <= 150_000 && pagedRows == bigSection),
            ], widths)
        Report.row(
            [
                "idle RSS, 10k-row table", "\(Report.number(Double(rss) / 1024, 2)) MiB",
                "VmRSS after 1 s idle", "",
                "<= 12 MiB", verdict(rss > 0 && rss <= 12 * 1024),
            ], widths)
        print(
            "    of which anonymous \(Report.number(Double(anonymous) / 1024, 2)) MiB, "
                + "file-backed (code of the binary and its libraries) \(Report.number(Double(fileBacked) / 1024, 2)) MiB"
        )
    }

    /// "met" or "MISSED".
    static func verdict(_ met: Bool) -> String { met ? "met" : "MISSED" }

    /// Nanoseconds that `body` took.
    static func timed(_ body: () throws -> Void) rethrows -> UInt64 {
        let start = MonotonicClock.nanoseconds()
        try body()
        return MonotonicClock.nanoseconds() - start
    }

    /// The median of `samples` (nanoseconds) in microseconds.
    static func median(_ samples: [UInt64]) -> Double {
        Double(samples.sorted()[samples.count / 2]) / 1000
    }

    /// A `lines` import of one section of `count` rows.
    static func lines(_ count: Int) -> String {
        var text = ""
        for index in 0..<count { text += "row \(index) of the benchmark table\n" }
        return text
    }

    /// The `field` (`VmRSS`, `RssAnon`, `RssFile`) of process `pid` in KiB (0 when unreadable).
    static func memoryKiB(of pid: pid_t, _ field: String = "VmRSS") -> Int {
        guard let file = fopen("/proc/\(pid)/status", "r") else { return 0 }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if text.hasPrefix(field + ":") {
                return Int(text.dropFirst(field.count + 1).filter(\.isNumber)) ?? 0
            }
        }
        return 0
    }

}
