// SPDX-License-Identifier: MIT
import CliptabClient
import DBus
import Foundation
import Glibc
import Posix

/// The hostile inputs, each a `HostileCase`: the same catalogue for the tests and the
/// benchmark.
public enum HostileCatalogue {
    /// Every case; `full` uses the benchmark's sizes where the tests use smaller ones.
    public static func cases(full: Bool) -> [HostileCase] {
        scans + imports(full: full) + bus(full: full) + descriptors + clipboard + rowNames(full: full)
            + windows(full: full)
    }

    /// The cases whose name contains `CLIPTAB_HOSTILE_CASES` (all when it is unset or
    /// empty), so that a developer can run a few at the benchmark's sizes.
    public static func selected(full: Bool) -> [HostileCase] {
        let all = cases(full: full)
        guard let filter = ProcessInfo.processInfo.environment["CLIPTAB_HOSTILE_CASES"], !filter.isEmpty
        else { return all }
        return all.filter { $0.name.contains(filter) }
    }

    /// 16 MiB, the largest argument the goals speak of.
    static let sixteenMiB = 16 << 20

    /// Scans whose cost once grew with operand × rows.
    static var scans: [HostileCase] {
        let operand = String(repeating: "b", count: 1_000_000)
        let brackets = String(repeating: "[é]", count: 19_999)
        let deepGroups = String(repeating: "(", count: 50_000) + "é" + String(repeating: ")", count: 50_000)
        let counted = String(repeating: "é{1,255}", count: 4_000)
        func deleteWhere(_ op: String, _ operand: String) -> (HostileContext) throws -> String {
            { context in
                context.outcome("DeleteWhere", [s("t"), s(op), s(operand), .boolean(true)]) { values in
                    "\(Self.count(values.first)) paths"
                }
            }
        }
        return [
            HostileCase(
                "contains 1 MB × 10,000 rows", rows: 10_000, largestMessageBytes: operand.utf8.count,
                attack: deleteWhere("contains", operand)),
            HostileCase(
                "matches 19,999 [] × 2,000", rows: 2_000, rowText: "é",
                largestMessageBytes: brackets.utf8.count,
                attack: deleteWhere("matches", brackets)),
            HostileCase(
                "matches 19,999 [] × 100,000", rows: 100_000, rowText: "é",
                largestMessageBytes: brackets.utf8.count, attack: deleteWhere("matches", brackets)),
            HostileCase(
                "matches 50,000 deep groups", rows: 2_000, rowText: "é",
                largestMessageBytes: deepGroups.utf8.count,
                attack: deleteWhere("matches", deepGroups)),
            HostileCase(
                "matches 4,000 {1,255}", rows: 2_000, rowText: "é", largestMessageBytes: counted.utf8.count,
                attack: deleteWhere("matches", counted)),
            HostileCase(
                "equals 1 MB × 10,000 rows", rows: 10_000, largestMessageBytes: operand.utf8.count,
                attack: deleteWhere("equals", operand)),
        ]
    }

    /// 16 MiB of tsv rows numbered 0, 1, … in one section, as the format wants, so that the
    /// import reaches the row limit instead of stopping at the second line (made once).
    static let numberedTSV: String = {
        var bytes = Array("section\theader\tfooter\trow\ttext\n".utf8)
        bytes.reserveCapacity(sixteenMiB + 32)
        var row = 0
        while bytes.count < sixteenMiB {
            bytes += "0\t\t\t".utf8
            bytes += String(row).utf8
            bytes += "\t\n".utf8
            row += 1
        }
        return String(decoding: bytes, as: UTF8.self)
    }()

    /// Imports of 16 MiB made to balloon while decoding.
    static func imports(full: Bool) -> [HostileCase] {
        let lines = String(repeating: "\n", count: sixteenMiB)
        let tsv = numberedTSV
        // Titles as strings (null is refused): the import must reach the row limit.
        let jsonRow = #"{"text":""},"#
        let json =
            #"{"name":"i","sections":[{"header":"","footer":"","rows":["#
            + String(repeating: jsonRow, count: sixteenMiB / jsonRow.utf8.count) + #"{"text":""}]}]}"#
        let nesting = String(repeating: "[", count: sixteenMiB)
        let sections = String(repeating: "##\n", count: sixteenMiB / 3)
        func importing(_ format: String, _ data: String) -> (HostileContext) throws -> String {
            { context in
                context.outcome("ImportTable", [s("i"), s(format), s(data), .boolean(false)]) { values in
                    "\(values.first.map { "\($0)" } ?? "?") rows"
                }
            }
        }
        return [
            HostileCase(
                "import lines 16 MiB \\n", largestMessageBytes: lines.utf8.count,
                attack: importing("lines", lines)),
            HostileCase(
                "import lines 16 MiB ##", largestMessageBytes: sections.utf8.count,
                attack: importing("lines", sections)),
            HostileCase(
                "import tsv 16 MiB rows", largestMessageBytes: tsv.utf8.count, attack: importing("tsv", tsv)),
            HostileCase(
                "import json 16 MiB rows", largestMessageBytes: json.utf8.count,
                attack: importing("json", json)),
            HostileCase(
                "import json 16 MiB nesting", largestMessageBytes: nesting.utf8.count,
                attack: importing("json", nesting)),
        ]
    }

    /// The bus itself: many elements, replies nobody reads, a message near the bus limit.
    static func bus(full: Bool) -> [HostileCase] {
        let empties = 1_000_000
        let unread = full ? 1_000 : 200
        let huge = 120 << 20
        return [
            HostileCase("InsertRows 1,000,000 empty", rows: 1, largestMessageBytes: empties * 8) { context in
                context.outcome(
                    "InsertRows", [s("t"), i(0), i(0), strings(Array(repeating: "", count: empties))]
                ) {
                    "\(Self.count($0.first)) ids"
                }
            },
            HostileCase("\(unread) × 1 MiB replies unread", largestMessageBytes: 1 << 20) { context in
                try Self.neverRead(context, calls: unread)
            },
            HostileCase("one 120 MiB message", rows: 1, largestMessageBytes: huge) { context in
                // A plain string argument: an array (InsertRows) may not exceed 64 MiB.
                context.outcome("InsertRow", [s("t"), i(0), i(0), s(String(repeating: "h", count: huge))])
            },
        ]
    }

    /// X clients: a flood of STRING requests, MULTIPLE with thousands of pairs, stalled INCR
    /// readers, a stopped X server.
    static var clipboard: [HostileCase] {
        [
            HostileCase("64 STRING reads at once", largestMessageBytes: 0) { context in
                let readers = try (0..<64).map { _ in
                    try context.spawnXClient("sh", ["-c", "xclip -o -selection clipboard -t STRING | wc -c"])
                }
                let sizes = readers.map { $0.readLine(timeoutMilliseconds: 30_000) ?? "none" }
                for reader in readers { reader.terminate(graceMilliseconds: 100) }
                let whole = sizes.filter {
                    Int($0.trimmingCharacters(in: .whitespaces)) == HostileRunner.clipboardBytes
                }
                return "done: \(whole.count) of 64 read 1 MiB"
            },
            HostileCase("MULTIPLE 4,000 pairs", largestMessageBytes: 0) { context in
                let requestor = try context.spawnXClient(
                    "python3", ["-c", xRequestorScript, "multiple", "4000"])
                defer { requestor.terminate(graceMilliseconds: 100) }
                return "done: " + (requestor.readLine(timeoutMilliseconds: 30_000) ?? "no answer")
            },
            HostileCase("8 stalled INCR readers", largestMessageBytes: 0) { context in
                let stallers = try (0..<8).map { _ in
                    try context.spawnXClient("python3", ["-c", xRequestorScript, "stall", "3"])
                }
                let said = stallers.map { $0.readLine(timeoutMilliseconds: 30_000) ?? "nothing" }
                // The readers stall while the probe makes a score of calls, then leave.
                context.probe.awaitCalls(20)
                return "done: \(said.filter { $0 == "notified" }.count) of 8 notified"
            },
            HostileCase("X server stopped, Copy", largestMessageBytes: 0, readsClipboard: false) { context in
                guard let server = context.daemon.virtualDisplay?.process else { return "failed: no display" }
                server.signal(SIGSTOP)
                defer { server.signal(SIGCONT) }
                return context.outcome("Copy", [s("probe"), i(0), i(0)])
            },
        ]
    }

    /// Sends `calls` exports of the 1 MiB table without ever reading a reply, waits until the
    /// daemon has served them (a call made after them is answered), and says what the bus did.
    static func neverRead(_ context: HostileContext, calls: Int) throws -> String {
        let idle = try context.daemon.connect()
        for _ in 0..<calls { try idle.send(CliptabClient.message("ExportTable", [s("clip"), s("lines")])) }
        let deadline = MonotonicClock.milliseconds() + 60_000
        // Written out through the write watch only: nothing is ever read on this connection.
        while idle.outgoingBytes > 0 && MonotonicClock.milliseconds() < deadline {
            BusPollTurn.run([idle], timeoutMilliseconds: 100, reading: false)
        }
        let after = context.outcome("GetRevision", [s("clip")])
        let busKiB = HostileRunner.field("VmRSS:", of: context.daemon.bus.process.pid)
        idle.close()
        return "\(after.hasPrefix("done") ? "done" : after): bus holds \(busKiB / 1024) MiB"
    }

    /// The number of elements of an array value.
    static func count(_ value: BusValue?) -> Int {
        if case .array(_, let items)? = value { return items.count }
        return -1
    }
}
