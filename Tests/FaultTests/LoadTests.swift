// SPDX-License-Identifier: MIT
import CliptabClient
import DBus
import DaemonTestSupport
import Posix
import TestSupport
import Testing

/// Load: eight clients making 10,000 mixed calls each, at once, on one table.
@Suite(.serialized)
struct LoadTests {
    /// Clients, each on its own connection.
    static let clients = 8
    /// Calls per client.
    static let callsPerClient = 10_000
    /// Calls each client keeps in flight.
    static let depth = 2
    /// The share of changes among the calls; the rest are reads.
    static let changeShare = 0.25

    /// A change the daemon accepted, with its reply.
    struct Accepted {
        /// The reply's serial: the daemon sends its replies in the order it made the changes.
        let serial: UInt32
        let mutation: Mutation
        let values: [BusValue]
    }

    /// Small calls that arrive while the daemon writes a large reply are answered at once.
    ///
    /// The daemon once flushed its output before each poll; libdbus reads while it flushes,
    /// and the calls it read then sat in its queue, unseen by poll, until a client's
    /// timeout made something else arrive.
    @Test func callsReadWhileALargeReplyIsWrittenAreAnswered() throws {
        let daemon = try DaemonProcess()
        let control = try BusConnection.connect(address: daemon.bus.address)
        try CliptabClient.call(control, "CreateTable", [s("big")])
        let cell = String(repeating: "r", count: 4 << 20)
        try CliptabClient.call(
            control, "InsertRows", [s("big"), i(0), i(0), strings(Array(repeating: cell, count: 4))])
        let pool = try CallPool(address: daemon.bus.address, count: 2)
        var failures: [String] = []
        for round in 0..<5 {
            var answered = 0
            try pool.send(0, CliptabClient.message("ExportTable", [s("big"), s("lines")]), timeout: 10_000) {
                result, _ in
                if case .failure(let error) = result {
                    failures.append("round \(round): export \(error.name)")
                }
                answered += 1
            }
            for _ in 0..<50 {
                try pool.send(1, CliptabClient.message("GetRevision", [s("big")]), timeout: 10_000) {
                    result, _ in
                    if case .failure(let error) = result { failures.append("round \(round): \(error.name)") }
                    answered += 1
                }
            }
            pool.run(milliseconds: 15_000) { answered == 51 }
            if !failures.isEmpty { break }
        }
        let unanswered = failures.count
        #expect(unanswered == 0, "\(unanswered) calls went unanswered, first: \(failures.first ?? "")")
    }

    @Test func eightClientsAtOnce() throws {
        var random = SeededRandom("load")
        let daemon = try DaemonProcess()
        let control = try BusConnection.connect(address: daemon.bus.address)
        try CliptabClient.call(control, "CreateTable", [s("load")])
        for section in 0..<4 {
            if section > 0 {
                try CliptabClient.call(control, "InsertSection", [s("load"), i(-1), s("s\(section)"), s("")])
            }
            try CliptabClient.call(
                control, "InsertRows",
                [s("load"), i(Int32(section)), i(0), strings((0..<40).map { _ in random.text() })])
        }
        let initial = try #require(try TableSnapshot.read(control, "load"))
        var approximate = ReplicaTable(initial)
        var accepted: [Accepted] = []
        var refused: [String: Int] = [:]
        var problems: [String] = []
        var latencies = Latencies()
        var sent = Array(repeating: 0, count: Self.clients)
        var ids = initial.sections.flatMap { $0.rows.map(\.id) }
        let pool = try CallPool(address: daemon.bus.address, count: Self.clients)
        let residentBefore = daemon.residentKiB
        var nextRefresh = 500
        let start = MonotonicClock.milliseconds()

        /// A read the client makes: indexes from its possibly stale view of the table.
        func read() throws -> BusMessage {
            let section = Int32.random(in: 0...Int32(max(approximate.sections.count - 1, 0)), using: &random)
            let rows =
                approximate.sections.indices.contains(Int(section))
                ? approximate.sections[Int(section)].rows.count : 0
            let row = Int32.random(in: 0...Int32(max(rows - 1, 0)), using: &random)
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<40: return try CliptabClient.message("GetCell", [s("load"), i(section), i(row)])
            case 40..<60:
                return try CliptabClient.message(
                    "GetRows", [s("load"), i(section), .uint32(UInt32(row)), .uint32(20)])
            case 60..<70: return try CliptabClient.message("GetSections", [s("load")])
            case 70..<80: return try CliptabClient.message("GetRevision", [s("load")])
            case 80..<90: return try CliptabClient.message("Locate", [.uint64(random.pick(ids))])
            case 90..<99: return try CliptabClient.message("ListTables")
            default: return try CliptabClient.message("ExportTable", [s("load"), s("tsv")])
            }
        }

        while sent.contains(where: { $0 < Self.callsPerClient }) || pool.totalInFlight > 0 {
            for slot in 0..<Self.clients
            where sent[slot] < Self.callsPerClient && pool.inFlight[slot] < Self.depth {
                sent[slot] += 1
                if random.chance(Self.changeShare) {
                    let (mutation, _) = approximate.randomMutation(&random, invalid: 0.05)
                    try pool.send(slot, CliptabClient.message(mutation.member, mutation.arguments("load"))) {
                        result, time in
                        latencies.add(time)
                        switch result {
                        case .success(let reply):
                            let values = (try? reply.readValues()) ?? []
                            accepted.append(
                                Accepted(serial: reply.serial, mutation: mutation, values: values))
                            if approximate.isValid(mutation) { approximate.apply(mutation, reply: values) }
                            for case .uint64(let id) in values { ids.append(id) }
                        case .failure(let error):
                            let name = Cliptab.short(error.name)
                            refused[name, default: 0] += 1
                            if !["IndexOutOfRange", "InvalidArgument"].contains(name) {
                                problems.append("\(mutation): \(error)")
                            }
                        }
                    }
                } else {
                    try pool.send(slot, read()) { result, time in
                        latencies.add(time)
                        if case .failure(let error) = result,
                            !["IndexOutOfRange", "NoSuchRow"].contains(Cliptab.short(error.name))
                        {
                            problems.append("a read failed: \(error)")
                        }
                    }
                }
            }
            pool.turn(milliseconds: 5)
            if accepted.count >= nextRefresh, let table = try TableSnapshot.read(control, "load") {
                // The clients' view drifts (they see replies, not each other's changes).
                nextRefresh += 500
                approximate = ReplicaTable(table)
            }
        }
        let seconds = Double(MonotonicClock.milliseconds() - start) / 1000

        // Applied one by one in the order the daemon answered, the accepted changes must
        // each have been valid at their turn and must give exactly the table it holds.
        var truth = ReplicaTable(initial)
        for change in accepted.sorted(by: { $0.serial < $1.serial }) {
            guard truth.isValid(change.mutation) else {
                problems.append("\(change.mutation) was accepted but was not valid at its turn")
                continue
            }
            if case .deleteWhereEquals(let text) = change.mutation,
                change.values.first != .array(elementSignature: "(ii)", truth.paths(equal: text))
            {
                problems.append("\(change.mutation) answered paths that were not there at its turn")
            }
            truth.apply(change.mutation, reply: change.values)
        }
        let final = try #require(try TableSnapshot.read(control, "load"))
        let matches = truth.matches(final)
        #expect(matches, "the table is not the serial application of the accepted changes")
        #expect(final.revision == initial.revision + UInt64(accepted.count))
        let residentAfter = daemon.residentKiB
        try daemon.restart()
        let stored = try TableSnapshot.read(control, "load")
        #expect(stored == final, "after a kill the store holds another table than the daemon served")
        #expect(problems.isEmpty, "\(problems.prefix(5).joined(separator: "\n"))")
        // Every call answered (a hung one fails at the pool's generous timeout); how fast is
        // the benchmark's question (`cliptab-bench load`, on the release daemon).
        #expect(latencies.samples.count == Self.clients * Self.callsPerClient)
        let p99 = latencies.percentile(0.99)
        print(
            "load: \(Self.clients) clients x \(Self.callsPerClient) calls in \(Int(seconds)) s; "
                + "\(accepted.count) changes accepted, \(refused.values.reduce(0, +)) refused (stale indexes); "
                + "p50 \(latencies.percentile(0.5)) ms, p99 \(p99) ms (timed by cliptab-bench load), "
                + "max \(latencies.maximum) ms; RSS \(residentBefore) -> \(residentAfter) KiB")
    }
}
