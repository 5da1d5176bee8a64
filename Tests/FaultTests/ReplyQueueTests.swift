// SPDX-License-Identifier: MIT
import CliptabClient
import DBus
import DaemonTestSupport
import Glibc
import Posix
import TestSupport
import Testing

/// The daemon's own queue of replies to the bus stays bounded when the bus stops reading.
@Suite(.serialized)
struct ReplyQueueTests {
    /// Calls of 1 MiB replies arrive, then the bus daemon stops (SIGSTOP) and reads nothing:
    /// the daemon stops serving calls once 32 MiB of replies wait (it grew by 48 MiB here,
    /// heap and the reply in the making included; 110 MiB without the cap) instead of queueing all
    /// 120 MiB; once the bus reads again, every reply arrives.
    @Test func repliesWaitingForAStoppedBusStayNearTheCap() throws {
        let daemon = try DaemonProcess()
        try daemon.call("CreateTable", [s("big")])
        try daemon.call(
            "InsertRows", [s("big"), i(0), i(0), strings([String(repeating: "r", count: 1 << 20)])])
        let client = try daemon.connect()
        // Settle the heap after the insert, then take the baseline.
        try daemon.call("ExportTable", [s("big"), s("lines")])
        let baseline = daemon.residentAfterTrimKiB()
        let count = 120
        let serials = try (0..<count).map { _ in
            try client.send(CliptabClient.message("GetCell", [s("big"), i(0), i(0)]))
        }
        client.flush()
        // Once the daemon is making replies it has the calls (12 KB, one read): stop the bus.
        #expect(
            eventually(within: 10_000, every: 2) { daemon.residentKiB - baseline >= 4 << 10 },
            "the daemon did not start replying")
        daemon.bus.process.signal(SIGSTOP)
        // Watch the daemon until it has stopped growing for 1.5 s (the cap reached, or every
        // reply made), at most 8 s.
        var worst = 0
        var still = 0
        _ = eventually(within: 8000, every: 50) {
            let grown = daemon.residentKiB - baseline
            still = grown > worst ? 0 : still + 1
            worst = max(worst, grown)
            return still >= 30
        }
        daemon.bus.process.signal(SIGCONT)
        var replies: Set<UInt32> = []
        while replies.count < count, let message = client.readMessage(timeoutMilliseconds: 30_000) {
            if message.type == .methodReturn { replies.insert(message.replySerial) }
        }
        #expect(worst < 64 << 10, "the daemon grew by \(worst / 1024) MiB while the bus was stopped")
        #expect(replies == Set(serials))
    }
}
