// SPDX-License-Identifier: MIT
import CliptabClient
import CliptabContract
import DBus
import DaemonTestSupport
import Glibc
import Posix
import TestSupport
import Testing

/// `kill -9` of the daemon while clients change tables loses no
/// acknowledged change, keeps no refused one, and never tears a large change apart.
@Suite(.serialized)
struct CrashTests {
    /// Kills of the random-mutation test (at least 50 per CI run, so that kills land in every phase of a commit).
    static let kills = 100
    /// Clients streaming changes, each on its own connection and its own table.
    static let clients = 4

    /// One client: its table, its replica, and the change it is waiting for.
    struct Client {
        let table: String
        var replica = ReplicaTable()
        var waiting: (mutation: Mutation, valid: Bool)?
        /// The change whose reply was lost when the daemon died.
        var uncertain: Mutation?
    }

    /// Tallies printed at the end, so that a run shows how much it exercised.
    struct Tally {
        var acknowledged = 0
        var refused = 0
        var uncertainApplied = 0
        var uncertainLost = 0
        var killsWhileStarting = 0
    }

    @Test func killsDuringRandomChanges() throws {
        var random = SeededRandom("crash")
        let daemon = try DaemonProcess()
        let control = try BusConnection.connect(address: daemon.bus.address)
        var clients = (0..<Self.clients).map { Client(table: "crash-\($0)") }
        for client in clients { try CliptabClient.call(control, "CreateTable", [s(client.table)]) }
        let pool = try CallPool(address: daemon.bus.address, count: Self.clients)
        var seenIDs = Set<UInt64>()
        var tally = Tally()
        var failures: [String] = []

        func reply(_ slot: Int, _ result: Result<BusMessage, BusError>) {
            guard let (mutation, valid) = clients[slot].waiting else { return }
            clients[slot].waiting = nil
            switch result {
            case .success(let message):
                let values = (try? message.readValues()) ?? []
                if !valid { failures.append("\(mutation) should have been refused but succeeded") }
                if case .deleteWhereEquals(let text) = mutation,
                    values.first != .array(elementSignature: "(ii)", clients[slot].replica.paths(equal: text))
                {
                    failures.append("\(mutation) answered paths \(values) that the replica does not have")
                }
                for value in values {
                    for id in ids(in: value) where !seenIDs.insert(id).inserted {
                        failures.append("\(mutation) answered the id \(id), which was handed out before")
                    }
                }
                clients[slot].replica.apply(mutation, reply: values)
                tally.acknowledged += 1
            case .failure(let error) where error.name.hasPrefix(CliptabBus.errorPrefix):
                if valid || Cliptab.short(error.name) != "IndexOutOfRange" {
                    failures.append("\(mutation) was refused: \(error)")
                }
                tally.refused += 1
            case .failure:
                // No reply: the daemon died with the call in flight. A call that must be
                // refused cannot have changed anything either way.
                if valid { clients[slot].uncertain = mutation }
            }
        }

        var rounds = 0
        for round in 0..<Self.kills {
            rounds += 1
            // Stream changes, one call in flight per client, for a random moment.
            let end = MonotonicClock.milliseconds() + UInt64.random(in: 0...150, using: &random)
            while MonotonicClock.milliseconds() < end {
                for slot in 0..<Self.clients where clients[slot].waiting == nil {
                    let (mutation, valid) = clients[slot].replica.randomMutation(&random)
                    clients[slot].waiting = (mutation, valid)
                    try pool.send(
                        slot, CliptabClient.message(mutation.member, mutation.arguments(clients[slot].table))
                    ) {
                        result, _ in reply(slot, result)
                    }
                }
                pool.turn(milliseconds: 2)
            }
            daemon.kill(SIGKILL)
            // Replies already on their way still arrive; the rest fail with NoReply.
            #expect(pool.drain(milliseconds: 30_000), "calls still in flight after the kill")
            if round % 10 == 5 {
                // Now and then the daemon dies again while it opens the store.
                try daemon.start()
                daemon.kill(SIGKILL)
                tally.killsWhileStarting += 1
            }
            try daemon.start()

            let dump = try TableSnapshot.readAll(control)
            let allIDs = TableSnapshot.rowIDs(in: dump)
            if Set(allIDs).count != allIDs.count { failures.append("round \(round): duplicate row ids") }
            for slot in 0..<Self.clients {
                guard let table = dump[clients[slot].table] else {
                    failures.append("round \(round): table \(clients[slot].table) is gone")
                    continue
                }
                if let mutation = clients[slot].uncertain {
                    clients[slot].uncertain = nil
                    var applied = clients[slot].replica
                    applied.apply(mutation, reply: nil)
                    if applied.matches(table) {
                        for id in applied.adoptIDs(from: table) where !seenIDs.insert(id).inserted {
                            failures.append(
                                "round \(round): \(mutation) got the id \(id), which was handed out before")
                        }
                        clients[slot].replica = applied
                        tally.uncertainApplied += 1
                        continue
                    }
                    tally.uncertainLost += 1
                }
                if !clients[slot].replica.matches(table) {
                    failures.append(
                        "round \(round): \(clients[slot].table) differs from its replica: \(describe(clients[slot].replica, table))"
                    )
                    // Carry on from what the store holds, so that one failure is reported once.
                    clients[slot].replica = ReplicaTable(table)
                }
            }
            if failures.count > 5 { break }
        }
        #expect(failures.isEmpty, "\(failures.prefix(5).joined(separator: "\n"))")
        #expect(tally.acknowledged > Self.kills * 5, "too few changes were acknowledged: \(tally)")
        print(
            "crash: \(rounds + tally.killsWhileStarting) kills survived (\(tally.killsWhileStarting) while starting); "
                + "\(tally.acknowledged) changes acknowledged, \(tally.refused) refused, "
                + "in flight at the kill: \(tally.uncertainApplied) applied, \(tally.uncertainLost) not")
    }

    /// The rows of the large changes.
    static let bigRows = 100_000

    /// A `lines` document of `bigRows` rows in two sections, every row naming `version`.
    static func bigDocument(_ version: Int) -> String {
        var lines = ["## first \(version)"]
        lines.reserveCapacity(bigRows + 2)
        for row in 0..<bigRows {
            if row == bigRows / 2 { lines.append("## second \(version)") }
            lines.append("\(row % 2 == 0 ? "keep" : "drop") v\(version) row \(row)")
        }
        return lines.joined(separator: "\n")
    }

    /// Sends `member` and kills the daemon once it has written `fraction` of `bytes` (the
    /// bytes the same call wrote when it was let finish), or lets it finish when `fraction`
    /// is nil; returns whether its reply arrived.
    static func killPartway(
        _ daemon: DaemonProcess, _ pool: CallPool, _ member: String, _ arguments: [BusValue],
        fraction: Double?,
        bytes: inout Int
    ) throws -> Bool {
        var answered: Result<BusMessage, BusError>?
        let before = daemon.writtenBytes
        try pool.send(0, CliptabClient.message(member, arguments), timeout: 300_000) { result, _ in
            answered = result
        }
        if let fraction {
            // Watched closely: SQLite writes a change's pages in a burst at COMMIT.
            let target = before + Int(Double(bytes) * fraction)
            let deadline = MonotonicClock.milliseconds() + 300_000
            while answered == nil && daemon.writtenBytes < target && MonotonicClock.milliseconds() < deadline
            {
                pool.turn(milliseconds: 0)
                usleep(100)
            }
            daemon.kill(SIGKILL)
            pool.drain()
            try daemon.start()
        } else {
            pool.drain(milliseconds: 300_000)
            bytes = daemon.writtenBytes - before
        }
        if case .failure(let error)? = answered, error.name.hasPrefix(CliptabBus.errorPrefix) {
            throw FixtureError("\(member) was refused: \(error)")
        }
        if case .success = answered { return true }
        return false
    }

    /// A table after an import of `bigDocument(version)`.
    static func isImport(_ table: TableSnapshot?, version: Int) -> Bool {
        guard let table, table.sections.count == 2 else { return false }
        let rows = table.sections[0].rows + table.sections[1].rows
        return table.sections[0].header == "first \(version)"
            && table.sections[1].header == "second \(version)"
            && rows.count == bigRows
            && rows.enumerated().allSatisfy { $0.element.text.hasSuffix("v\(version) row \($0.offset)") }
    }

    @Test func killDuringLargeImportIsAllOrNothing() throws {
        let daemon = try DaemonProcess()
        let pool = try CallPool(address: daemon.bus.address, count: 1)
        let control = try BusConnection.connect(address: daemon.bus.address)
        var bytes = 0
        // Measured once without a kill: how much the import writes.
        #expect(
            try Self.killPartway(
                daemon, pool, "ImportTable",
                [s("import"), s("lines"), s(Self.bigDocument(0)), .boolean(true)],
                fraction: nil, bytes: &bytes))
        #expect(Self.isImport(try TableSnapshot.read(control, "import"), version: 0))
        var outcomes = (nothing: 0, all: 0)
        var current = 0
        // Replacing the content of an existing table, and creating a table by import.
        for (attempt, fraction) in [0.02, 0.15, 0.35, 0.6, 0.9].enumerated() {
            let version = attempt + 1
            let answered = try Self.killPartway(
                daemon, pool, "ImportTable",
                [s("import"), s("lines"), s(Self.bigDocument(version)), .boolean(true)], fraction: fraction,
                bytes: &bytes)
            let table = try TableSnapshot.read(control, "import")
            if Self.isImport(table, version: version) {
                current = version
                outcomes.all += 1
            } else {
                #expect(
                    !answered && Self.isImport(table, version: current), "replace import at \(fraction): torn"
                )
                outcomes.nothing += 1
            }

            let created = "created-\(version)"
            let madeIt = try Self.killPartway(
                daemon, pool, "ImportTable",
                [s(created), s("lines"), s(Self.bigDocument(version)), .boolean(false)],
                fraction: fraction, bytes: &bytes)
            let made = try TableSnapshot.read(control, created)
            if made == nil {
                #expect(!madeIt, "the import of \(created) was answered but is gone")
                outcomes.nothing += 1
            } else {
                #expect(Self.isImport(made, version: version), "new import at \(fraction): torn")
                outcomes.all += 1
                try CliptabClient.call(control, "DropTable", [s(created)], timeout: 120_000)
            }
        }
        let ids = TableSnapshot.rowIDs(in: try TableSnapshot.readAll(control))
        #expect(Set(ids).count == ids.count, "duplicate row ids")
        print(
            "crash: \(outcomes.nothing + outcomes.all) kills during a \(Self.bigRows)-row ImportTable "
                + "(\(bytes) bytes written): \(outcomes.nothing) left nothing, \(outcomes.all) all, none torn"
        )
    }

    @Test func killDuringLargeDeleteWhereIsAllOrNothing() throws {
        let daemon = try DaemonProcess()
        let pool = try CallPool(address: daemon.bus.address, count: 1)
        let control = try BusConnection.connect(address: daemon.bus.address)
        let arguments: [BusValue] = [s("big"), s("prefix"), s("drop"), .boolean(false)]
        var bytes = 0
        var full = TableSnapshot(revision: 0, allowedActions: [], sections: [])
        var kept = full
        /// Fills the table again, and notes what it holds before and after the deletion.
        func fill() throws {
            try CliptabClient.call(
                control, "ImportTable", [s("big"), s("lines"), s(Self.bigDocument(0)), .boolean(true)],
                timeout: 300_000)
            full = try #require(try TableSnapshot.read(control, "big"))
            kept = full
            kept.revision += 1
            for index in kept.sections.indices {
                kept.sections[index].rows.removeAll { $0.text.hasPrefix("drop") }
            }
        }
        try fill()
        // Measured once without a kill: how much deleting half the rows writes.
        #expect(try Self.killPartway(daemon, pool, "DeleteWhere", arguments, fraction: nil, bytes: &bytes))
        #expect(try TableSnapshot.read(control, "big") == kept)
        var outcomes = (nothing: 0, all: 0)
        for fraction in [0.03, 0.1, 0.2, 0.3, 0.4, 0.5] {
            try fill()
            let answered = try Self.killPartway(
                daemon, pool, "DeleteWhere", arguments, fraction: fraction, bytes: &bytes)
            let table = try TableSnapshot.read(control, "big")
            if table == kept {
                outcomes.all += 1
            } else {
                #expect(
                    !answered && table == full,
                    "DeleteWhere killed at \(fraction): \(table.map { full.difference(from: $0) ?? "" } ?? "table gone")"
                )
                outcomes.nothing += 1
            }
        }
        print(
            "crash: \(outcomes.nothing + outcomes.all) kills during a DeleteWhere of \(Self.bigRows / 2) of \(Self.bigRows) rows "
                + "(\(bytes) bytes written): \(outcomes.nothing) left nothing deleted, \(outcomes.all) all, none torn"
        )
    }
}

/// The row ids in a reply value (`t` or `at`).
private func ids(in value: BusValue) -> [UInt64] {
    switch value {
    case .uint64(let id): return [id]
    case .array("t", let items): return items.flatMap(ids(in:))
    default: return []
    }
}

/// The first difference between a replica and the daemon's table.
private func describe(_ replica: ReplicaTable, _ table: TableSnapshot) -> String {
    let expected = TableSnapshot(
        revision: replica.revision, allowedActions: table.allowedActions,
        sections: replica.sections.map { section in
            SectionSnapshot(
                header: section.header, footer: section.footer,
                rows: section.rows.map { RowSnapshot(id: $0.id ?? 0, text: $0.text) })
        })
    return expected.difference(from: table) ?? "?"
}

extension ReplicaTable {
    /// A replica equal to what the daemon reports.
    init(_ table: TableSnapshot) {
        revision = table.revision
        sections = table.sections.map { section in
            Section(
                header: section.header, footer: section.footer,
                rows: section.rows.map { Row(id: $0.id, text: $0.text) })
        }
    }
}
