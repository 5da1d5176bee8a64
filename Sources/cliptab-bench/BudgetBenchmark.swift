// SPDX-License-Identifier: MIT
import CliptabClient
import CliptabContract
import CliptabCore
import DBus
import Glibc
import Posix

/// The cases of issue 11 that one call could make costly: each on a fresh release
/// `cliptabd`, with the call's time, its outcome and the daemon's peak RSS (VmHWM).
enum BudgetBenchmark {
    /// One case: a table to set up and the call to time.
    struct Case {
        /// What the case does, for the table.
        let title: String
        /// Rows of the table "t" before the call (one section, `lines`), if any.
        let setUp: String?
        /// The call's method and arguments.
        let member: String
        /// The call's arguments.
        let values: [BusValue]
        /// The size of the call's largest argument, in bytes.
        let messageBytes: Int
    }

    /// The issue's cases, as it states them.
    static func cases() -> [Case] {
        let operand = String(repeating: "a", count: 1_000_000)
        let brackets = String(repeating: "[é]", count: 19_999)
        let newlines = String(repeating: "\n", count: 16 << 20)
        return [
            Case(
                title: "DeleteWhere contains, 1,000,000-byte operand, 10,000 one-char rows",
                setUp: String(repeating: "a\n", count: 10_000), member: "DeleteWhere",
                values: [.string("t"), .string("contains"), .string(operand), .boolean(true)],
                messageBytes: operand.utf8.count),
            Case(
                title: "DeleteWhere matches, 19,999 brackets, 2,000 rows of \"é\"",
                setUp: String(repeating: "é\n", count: 2_000), member: "DeleteWhere",
                values: [.string("t"), .string("matches"), .string(brackets), .boolean(true)],
                messageBytes: brackets.utf8.count),
            Case(
                title: "DeleteWhere matches, 19,999 brackets, 100,000 rows of \"é\"",
                setUp: String(repeating: "é\n", count: 100_000), member: "DeleteWhere",
                values: [.string("t"), .string("matches"), .string(brackets), .boolean(true)],
                messageBytes: brackets.utf8.count),
            Case(
                title: "ImportTable lines, 16 MiB of newlines", setUp: nil, member: "ImportTable",
                values: [.string("t"), .string("lines"), .string(newlines), .boolean(false)],
                messageBytes: newlines.utf8.count),
        ]
    }

    /// Runs every case on its own daemon and prints one line per case.
    static func run() throws {
        print("== budget (release cliptabd, a fresh daemon per case; VmHWM is the daemon's peak RSS)")
        print("case | ms | outcome | VmHWM MiB | bound 4 x message + 64 MiB")
        for item in cases() {
            let session = try BenchSession(name: "budget")
            let client = try BusConnection.connect(address: session.address)
            if let rows = item.setUp {
                try session.cliptab(client).importTable("t", format: "lines", data: rows, replace: false)
            }
            var outcome = "done"
            let nanoseconds = BusBenchmark.timed {
                do {
                    // Each case's call as it is sent: the budget is the wire's.
                    try CliptabClient.call(client, item.member, item.values, timeout: 60_000)
                } catch let error as BusError {
                    outcome = "\(error.name.split(separator: ".").last ?? ""): \(error.message.prefix(60))"
                } catch {
                    outcome = "\(error)"
                }
            }
            let peak = BusBenchmark.memoryKiB(of: session.daemon.pid, "VmHWM")
            let bound = 4 * item.messageBytes / 1_048_576 + 64
            print("\(item.title) | \(nanoseconds / 1_000_000) | \(outcome) | \(peak / 1024) | \(bound)")
        }
    }
}
