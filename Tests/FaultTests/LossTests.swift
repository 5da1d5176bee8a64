// SPDX-License-Identifier: MIT
import CliptabClient
import DBus
import DaemonTestSupport
import Foundation
import Posix
import TestSupport
import Testing

/// Loss of the session: the session bus and the X display go away under the daemon.
@Suite(.serialized)
struct LossTests {
    /// The bus daemon killed (SIGKILL) or stopped (SIGTERM) while a client streams changes:
    /// cliptabd exits non-zero, having closed its store (no write-ahead log left), and the
    /// store holds every acknowledged change.
    @Test(arguments: [SIGKILL, SIGTERM])
    func busLost(signal: Int32) throws {
        var random = SeededRandom("bus lost")
        let daemon = try DaemonProcess()
        let pool = try CallPool(address: daemon.bus.address, count: 1)
        try CliptabClient.call(pool.connections[0], "CreateTable", [s("t")])
        var replica = ReplicaTable()
        var waiting: Mutation?
        var uncertain: Mutation?
        let end = MonotonicClock.milliseconds() + 300
        var killed = false
        let deadline = end + 30_000
        while (!killed || waiting != nil) && MonotonicClock.milliseconds() < deadline {
            if !killed && MonotonicClock.milliseconds() >= end {
                daemon.bus.process.signal(signal)
                killed = true
            }
            if waiting == nil && !killed {
                let (mutation, _) = replica.randomMutation(&random, invalid: 0)
                waiting = mutation
                try pool.send(0, CliptabClient.message(mutation.member, mutation.arguments("t"))) {
                    result, _ in
                    if case .success(let reply) = result {
                        replica.apply(mutation, reply: (try? reply.readValues()) ?? [])
                    } else {
                        uncertain = mutation
                    }
                    waiting = nil
                }
            }
            pool.turn(milliseconds: 2)
        }
        #expect(waiting == nil, "the call in flight when the bus died never ended")
        let exit = daemon.process.waitForExit(timeoutMilliseconds: 10_000)
        #expect(exit != nil && exit != .exited(0), "cliptabd ended with \(exit.map { "\($0)" } ?? "nothing")")
        #expect(daemon.log.contains("lost the connection to the session bus"), "\(daemon.log)")
        let logLeft = FileManager.default.fileExists(atPath: daemon.dataDirectory + "/cliptab.db-wal")
        #expect(!logLeft, "the store was not closed: its write-ahead log is still there")

        let again = try DaemonProcess(dataDirectory: daemon.dataDirectory)
        let table = try #require(
            try TableSnapshot.read(try BusConnection.connect(address: again.bus.address), "t"))
        var applied = replica
        if let uncertain { applied.apply(uncertain, reply: nil) }
        let kept = replica.matches(table) || (uncertain != nil && applied.matches(table))
        #expect(kept, "the store lost acknowledged changes when the bus went away")
        print(
            "bus lost (signal \(signal)): cliptabd \(exit.map { "\($0)" } ?? "?"), store closed, \(replica.revision) changes kept"
        )
    }

    /// Xvfb killed and started again, three times.
    ///
    /// The kills come during a 16 MiB INCR transfer, while a paste waits for an owner that
    /// never answers, and at rest. Table calls keep working, clipboard calls answer
    /// ClipboardUnavailable (the waiting paste at once), and the next clipboard call after
    /// the display is back works.
    @Test func displayKilledAndRestarted() throws {
        var display: VirtualDisplay? = try VirtualDisplay()
        let name = display!.display
        let daemon = try DaemonProcess(
            arguments: ["--paste-timeout-ms", "20000"], environment: ["DISPLAY": name])
        let client = try BusConnection.connect(address: daemon.bus.address)
        let big = String(repeating: "x", count: 16 << 20)
        try CliptabClient.call(client, "CreateTable", [s("t")])
        try CliptabClient.call(client, "InsertRows", [s("t"), i(0), i(0), strings(["small", big])])
        var environment = [
            "DISPLAY": name, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
        ]
        environment["HOME"] = daemon.home.path
        let pool = try CallPool(address: daemon.bus.address, count: 1)

        for cycle in 0..<3 {
            try CliptabClient.call(client, "Copy", [s("t"), i(0), i(cycle == 0 ? 1 : 0)], timeout: 60_000)
            var pasteAnswer: Result<BusMessage, BusError>?
            var pasteKilledAt: UInt64 = 0
            var reader: ChildProcess?
            var owner: ChildProcess?
            switch cycle {
            case 0:
                // A reader in the middle of the INCR transfer of 16 MiB.
                let written = daemon.writtenBytes
                reader = try ChildProcess.spawn(
                    "xclip", ["-selection", "clipboard", "-o"], environment: environment, stdout: .null,
                    stderr: .null)
                #expect(
                    eventually(within: 10_000, every: 2) { daemon.writtenBytes - written >= 1 << 20 },
                    "the daemon sent xclip no MiB of the 16")
            case 1:
                // A paste waiting for an owner that never answers.
                owner = try ChildProcess.spawn(
                    "python3", ["-c", hostileRequestor, "own-silently", "60"], environment: environment,
                    stdout: .pipe, stderr: .null)
                #expect(owner!.readLine(timeoutMilliseconds: 10_000) != nil, "the silent owner did not start")
                try pool.send(0, CliptabClient.message("Paste", [s("t"), i(0), i(0)])) { result, _ in
                    pasteAnswer = result
                }
                // The paste waits once the daemon's request has reached the silent owner.
                let asked = pool.run(milliseconds: 10_000) { owner!.readLine(timeoutMilliseconds: 5) != nil }
                #expect(asked && pasteAnswer == nil, "the paste did not wait for the silent owner")
            default:
                break
            }
            display!.killKeepingNumber()
            display = nil
            pasteKilledAt = MonotonicClock.milliseconds()
            if cycle == 1 {
                pool.run(milliseconds: 15_000) { pasteAnswer != nil }
                let waited = MonotonicClock.milliseconds() - pasteKilledAt
                if case .failure(let error)? = pasteAnswer {
                    #expect(Cliptab.short(error.name) == "ClipboardUnavailable", "\(error)")
                } else {
                    Issue.record("the waiting paste got \(String(describing: pasteAnswer))")
                }
                #expect(waited < 3000, "the waiting paste was answered \(waited) ms after the display died")
            }
            reader?.waitForExit(timeoutMilliseconds: 10_000)
            reader?.signal(SIGKILL)
            owner?.signal(SIGKILL)

            // Without the display: tables work, the clipboard does not.
            try CliptabClient.call(client, "InsertRow", [s("t"), i(0), i(-1), s("no display \(cycle)")])
            #expect(try CliptabClient.call(client, "GetCell", [s("t"), i(0), i(0)]) == [s("small")])
            for (member, arguments) in [
                ("Copy", [s("t"), i(0), i(0)]), ("GetClipboard", []), ("Paste", [s("t"), i(0), i(0)]),
            ] as [(String, [BusValue])] {
                #expect(Cliptab.errorName(client, member, arguments) == "ClipboardUnavailable", "\(member)")
            }

            // The display comes back: the next clipboard call reconnects.
            display = try VirtualDisplay(display: name)
            try CliptabClient.call(client, "Copy", [s("t"), i(0), i(0)])
            let read = try ChildProcess.run(
                "xclip", ["-selection", "clipboard", "-o"], environment: environment,
                timeoutMilliseconds: 20_000)
            #expect(read.outputText == "small", "cycle \(cycle): xclip read \(read.outputText.prefix(40))")
        }
        #expect(daemon.process.isRunning && daemon.starts == 1, "the daemon did not survive the display")
        print(
            "display lost: Xvfb killed and restarted 3 times (mid-INCR, mid-paste, idle); cliptabd kept serving"
        )
    }
}
