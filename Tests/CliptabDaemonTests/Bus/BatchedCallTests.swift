// SPDX-License-Identifier: MIT
import CliptabClient
import DBus
import DaemonTestSupport
import Glibc
import Posix
import Testing

/// `CliptabClient.replyMessages`: calls sent together, each answered on its own, in order.
@Suite struct BatchedCallTests {
    /// Three calls, the second refused: each gets its own outcome, in the order sent, and all
    /// were on the wire before the first reply was read (one round trip).
    @Test func eachCallGetsItsOwnOutcomeInOrder() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        try daemon.call("CreateTable", [s("t")])
        let client = try CliptabClient.connect(
            address: daemon.bus.address, timeoutMilliseconds: 10_000, sharedDeadline: true)
        let outcomes = try client.replyMessages([
            ("ListTables", []), ("GetSecret", [s("no such table")]), ("GetSecret", [s("t")]),
        ])
        try #require(outcomes.count == 3)
        #expect(try outcomes[0].get().readValues() == [.array(elementSignature: "s", [s("t")])])
        guard case .failure(.refused(let error)) = outcomes[1] else {
            Issue.record("the call on a missing table got \(outcomes[1])")
            return
        }
        #expect(error.name.hasSuffix("NoSuchTable"), "\(error)")
        #expect(try outcomes[2].get().readValues() == [.boolean(false)])
    }

    /// The daemon stopped (SIGSTOP) while the batch waits: every call fails at the shared
    /// deadline, none waits past it.
    @Test func aDaemonGoneFailsEveryCall() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let client = try CliptabClient.connect(
            address: daemon.bus.address, timeoutMilliseconds: 2000, sharedDeadline: true)
        daemon.process.signal(SIGSTOP)
        let start = MonotonicClock.milliseconds()
        let outcomes = try client.replyMessages([("ListTables", []), ("ListTables", [])])
        let waited = MonotonicClock.milliseconds() - start
        #expect(waited < 4000, "the batch waited \(waited) ms past a 2 s deadline")
        #expect(outcomes.count == 2)
        for outcome in outcomes {
            guard case .failure = outcome else {
                Issue.record("a call to a stopped daemon got \(outcome)")
                continue
            }
        }
    }
}
