// SPDX-License-Identifier: MIT
import CliptabClient
import DBus
import Foundation
import Posix
import TestSupport

/// The API-version-2 methods (row names, secrecy) and an X client's window tree.
extension HostileCatalogue {
    /// `SetRowName`, `FindRow`, `GetRowNames` and `GetSecret`: huge arguments, a flood, many
    /// connections at once, and the names of many rows in the last of many sections.
    static func rowNames(full: Bool) -> [HostileCase] {
        let huge = "n" + String(repeating: "x", count: sixteenMiB - 1)
        let named = full ? 400_000 : 40_000
        // Sixteen callers of one large reply each: the probe waits behind all of them.
        let shared = full ? 20_000 : 4_000
        // Every SetRowName is a durable commit: the flood's own time is that of its fsyncs.
        let flood = full ? 4_000 : 2_000
        let connections = 16
        return [
            HostileCase("SetRowName 16 MiB name", rows: 1, largestMessageBytes: huge.utf8.count) { context in
                context.outcome("SetRowName", [s("t"), i(0), i(0), s(huge)])
            },
            HostileCase("FindRow 16 MiB name", rows: 1, largestMessageBytes: huge.utf8.count) { context in
                context.outcome("FindRow", [s("t"), s(huge)])
            },
            HostileCase("GetRowNames 16 MiB table", largestMessageBytes: huge.utf8.count) { context in
                context.outcome("GetRowNames", [s(huge)])
            },
            HostileCase("GetSecret 16 MiB table", largestMessageBytes: huge.utf8.count) { context in
                context.outcome("GetSecret", [s(huge)])
            },
            HostileCase(
                "GetRowNames \(named / 1000)k in last of 10k sec", largestMessageBytes: named * 32,
                prepare: { try namedTable($0, sections: 10_000, named: named) }
            ) { context in
                context.outcome("GetRowNames", [s("n")]) { "\(Self.count($0.first)) names" }
            },
            HostileCase(
                "SetRowName+FindRow flood \(flood / 1000)k", rows: flood / 2, largestMessageBytes: 1 << 10
            ) { context in
                let calls = (0..<flood / 2).flatMap { row in
                    [
                        ("SetRowName", [s("t"), i(0), i(Int32(row)), s("r\(row)")]),
                        ("FindRow", [s("t"), s("r\(row)")]),
                    ]
                }
                return try Self.flood(context.connection, calls)
            },
            HostileCase(
                "GetRowNames \(shared / 1000)k × \(connections) conns", largestMessageBytes: shared * 32,
                prepare: { try namedTable($0, sections: 1, named: shared) }
            ) { context in
                let callers = try (0..<connections).map { _ in try context.daemon.connect() }
                defer { for caller in callers { caller.close() } }
                let serials = try callers.map { try $0.send(CliptabClient.message("GetRowNames", [s("n")])) }
                var answered = 0
                for (caller, serial) in zip(callers, serials) {
                    if try Self.reply(to: serial, on: caller)?.errorName == nil { answered += 1 }
                }
                return "done: \(answered) of \(connections) answered"
            },
        ]
    }

    /// An X client that nests windows and focuses the deepest, then `PasteToFocus`.
    ///
    /// The focus search once walked the whole chain (80,000 round trips, 10.2 s, for the
    /// issue's chain of 80,000). The client makes its windows before the measurement: Xvfb
    /// takes 12 s to create 40,000 nested windows, and dies mapping 80,000 (its stack), so
    /// the benchmark nests 40,000.
    static func windows(full: Bool) -> [HostileCase] {
        let depth = full ? 40_000 : 5_000
        let nester = ClientBox()
        return [
            HostileCase(
                "window chain \(depth / 1000)k, PasteToFocus", largestMessageBytes: 0, readsClipboard: false,
                prepare: { daemon in
                    let client = try ChildProcess.spawn(
                        "python3", ["-c", windowNestScript, "\(depth)", "chain", "none", "none"],
                        environment: daemon.environment, stdin: .pipe, stdout: .pipe, stderr: .null)
                    nester.client = client
                    guard let line = client.readLine(timeoutMilliseconds: 600_000), line.hasPrefix("ready")
                    else {
                        throw FixtureError("the window client did not nest its windows in 10 minutes")
                    }
                }
            ) { context in
                defer {
                    nester.client?.terminate(graceMilliseconds: 1000)
                    nester.client = nil
                }
                return context.outcome("PasteToFocus", [s("probe"), i(0), i(0), .uint32(300)]) { values in
                    "delivered \(values.first.map { "\($0)" } ?? "?")"
                }
            }
        ]
    }

    /// Imports table "n": `sections` sections, the last holding `named` rows named `n0`, `n1`, ….
    static func namedTable(_ daemon: DaemonProcess, sections: Int, named: Int) throws {
        var json = #"{"name":"n","sections":["#
        json += String(repeating: #"{"header":"","footer":"","rows":[]},"#, count: sections - 1)
        json += #"{"header":"","footer":"","rows":["#
        json += (0..<named).map { #"{"text":"","name":"n\#($0)"}"# }.joined(separator: ",")
        json += "]}]}"
        try daemon.cliptab(timeout: 120_000).importTable("n", format: "json", data: json, replace: false)
    }

    /// Sends every call on `connection` without waiting, then reads every reply (at most a
    /// minute in all); says how many succeeded and failed.
    static func flood(_ connection: BusConnection, _ calls: [(String, [BusValue])]) throws -> String {
        var pending = Set<UInt32>()
        for (member, arguments) in calls {
            pending.insert(try connection.send(CliptabClient.message(member, arguments)))
        }
        var failed = 0
        let deadline = MonotonicClock.milliseconds() + 60_000
        while !pending.isEmpty && MonotonicClock.milliseconds() < deadline {
            guard let message = connection.readMessage(timeoutMilliseconds: 1_000) else { continue }
            if pending.remove(message.replySerial) != nil && message.errorName != nil { failed += 1 }
        }
        if !pending.isEmpty { return "failed: \(pending.count) calls unanswered" }
        return "done: \(calls.count - failed) ok, \(failed) refused"
    }

    /// The reply to call `serial` on `connection`, waiting at most a minute.
    static func reply(to serial: UInt32, on connection: BusConnection) throws -> BusMessage? {
        let deadline = MonotonicClock.milliseconds() + 60_000
        while MonotonicClock.milliseconds() < deadline {
            if let message = connection.readMessage(timeoutMilliseconds: 1_000), message.replySerial == serial
            {
                return message
            }
        }
        return nil
    }
}
