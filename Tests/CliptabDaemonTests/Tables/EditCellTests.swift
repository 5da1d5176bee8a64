// SPDX-License-Identifier: MIT
import CliptabContract
import DBus
import DaemonTestSupport
import TestSupport
import Testing

/// `EditCell` (API version 4): `SetCell` at a revision, in one call, on the built daemon.
@Suite(.serialized)
struct EditCellTests {
    private static func options(revision: UInt64?) -> BusValue {
        .dictionary(
            keySignature: "s", valueSignature: "v",
            revision.map { [(.string("revision"), .variant(.uint64($0)))] } ?? [])
    }

    @Test func aStaleRevisionIsRefusedAndTheRightOneSetsTheText() throws {
        let daemon = try DaemonProcess()
        try daemon.call("ImportTable", [s("t"), s("lines"), s("one\ntwo\n"), b(false)])
        let read = try daemon.call("GetRevision", [s("t")])
        try daemon.call("SetCell", [s("t"), i(0), i(1), s("meanwhile")])
        let before = try daemon.snapshotAll()
        guard case .uint64(let stale) = read.first else { throw FixtureError("GetRevision: \(read)") }
        let failure = daemon.failure(
            "EditCell", [s("t"), i(0), i(0), s("mine"), Self.options(revision: stale)])
        #expect(
            failure?.name == CliptabBus.errorPrefix + "RevisionMismatch", "\(String(describing: failure))")
        #expect(try daemon.snapshotAll() == before)

        let current = try daemon.call("GetRevision", [s("t")])
        guard case .uint64(let revision) = current.first else {
            throw FixtureError("GetRevision: \(current)")
        }
        let reply = try daemon.call(
            "EditCell", [s("t"), i(0), i(0), s("mine"), Self.options(revision: revision)])
        #expect(reply == [t(revision + 1)])
        #expect(try daemon.call("GetRevision", [s("t")]) == [t(revision + 1)])
        // Durable before the reply.
        try daemon.restart()
        #expect(try daemon.call("GetCell", [s("t"), i(0), i(0)]) == [s("mine")])
        #expect(try daemon.call("GetCell", [s("t"), i(0), i(1)]) == [s("meanwhile")])
        // No revision: any.
        #expect(
            try daemon.call("EditCell", [s("t"), i(0), i(0), s("any"), Self.options(revision: nil)]) == [
                t(revision + 2)
            ])
        let unknown = daemon.failure(
            "EditCell",
            [
                s("t"), i(0), i(0), s("x"),
                .dictionary(
                    keySignature: "s", valueSignature: "v", [(.string("revision"), .variant(.int64(1)))]),
            ])
        #expect(unknown?.name == CliptabBus.errorPrefix + "InvalidArgument")
    }
}
