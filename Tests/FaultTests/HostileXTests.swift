// SPDX-License-Identifier: MIT
import CliptabClient
import DBus
import DaemonTestSupport
import Foundation
import Posix
import TestSupport
import Testing

/// X clients that misbehave as requestors of the daemon's clipboard, while
/// an honest reader and a D-Bus client keep being served.
@Suite(.serialized)
struct HostileXTests {
    /// The longest a table call may take while the requestors misbehave (debug build).
    static let callBoundMilliseconds = 1000.0

    /// A daemon on a private display with a table `t`: a short row 0, and in row 1 a cell
    /// of 16 MiB, which goes to requestors by INCR (the server's largest request is 16 MiB
    /// less 4 bytes).
    final class Setup {
        let display: VirtualDisplay
        let daemon: DaemonProcess
        let client: BusConnection
        static let small = "honest text ✓"
        static let big =
            String(repeating: "0123456789abcdeü", count: (16 << 20) / 17)
            + String(repeating: "e", count: (16 << 20) % 17)

        init() throws {
            display = try VirtualDisplay()
            daemon = try DaemonProcess(environment: ["DISPLAY": display.display])
            client = try BusConnection.connect(address: daemon.bus.address)
            try CliptabClient.call(client, "CreateTable", [s("t")])
            try CliptabClient.call(
                client, "InsertRows", [s("t"), i(0), i(0), strings([Self.small, Self.big])])
        }

        /// The environment of X clients.
        var environment: [String: String] {
            [
                "DISPLAY": display.display,
                "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
                "LC_ALL": "C.UTF-8", "HOME": daemon.home.path,
            ]
        }

        /// Starts a hostile requestor.
        func requestor(_ arguments: [String]) throws -> ChildProcess {
            try ChildProcess.spawn(
                "python3", ["-c", hostileRequestor] + arguments, environment: environment, stdout: .pipe,
                stderr: .null)
        }
    }

    /// What happened while the requestors ran.
    struct Siege {
        /// Each requestor's printed result, decoded.
        var results: [[String: Any]] = []
        /// Honest reads that returned the whole text, and those that did not.
        var goodReads = 0
        var badReads: [String] = []
        /// Table calls made, and the slowest, in milliseconds.
        var calls = 0
        var slowestCall = 0.0
    }

    /// The honest reads a siege makes at least, however fast the machine reads.
    static let honestReads = 3

    /// Runs `requestors` while `xclip` reads the clipboard (expecting `expected`) and a
    /// client reads and changes the table, over and over: until every requestor but the
    /// stalling ones (which hold their transfer until they are ended) has ended and
    /// `honestReads` reads are done, at most 120 s; then ends the rest.
    static func siege(_ setup: Setup, _ requestors: [[String]], expected: String) throws -> Siege {
        var siege = Siege()
        let processes = try requestors.map { try setup.requestor($0) }
        let finite = zip(processes, requestors).filter { $0.1.first != "stall" }.map(\.0)
        let deadline = MonotonicClock.milliseconds() + 120_000
        var round = 0
        while finite.contains(where: { $0.isRunning })
            || siege.goodReads + siege.badReads.count < Self.honestReads,
            MonotonicClock.milliseconds() < deadline
        {
            round += 1
            for member in ["GetCell", "InsertRow", "DeleteRow"] {
                let start = MonotonicClock.nanoseconds()
                switch member {
                case "GetCell": try CliptabClient.call(setup.client, member, [s("t"), i(0), i(0)])
                case "InsertRow":
                    try CliptabClient.call(setup.client, member, [s("t"), i(0), i(-1), s("during \(round)")])
                default: try CliptabClient.call(setup.client, member, [s("t"), i(0), i(-1)])
                }
                siege.calls += 1
                siege.slowestCall = max(siege.slowestCall, Double(MonotonicClock.nanoseconds() - start) / 1e6)
            }
            let read = try ChildProcess.run(
                "xclip", ["-selection", "clipboard", "-o"], environment: setup.environment,
                timeoutMilliseconds: 30_000)
            if read.termination == .exited(0) && read.standardOutput.elementsEqual(expected.utf8) {
                siege.goodReads += 1
            } else {
                siege.badReads.append(
                    "\(read.termination), \(read.standardOutput.count) bytes: \(read.errorText)")
            }
        }
        for process in processes {
            let line = process.readLine(timeoutMilliseconds: 5000) ?? ""
            process.terminate()
            let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
            siege.results.append(object ?? ["unreadable": line])
        }
        return siege
    }

    static func expectServed(
        _ siege: Siege, _ setup: Setup, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(
            siege.badReads.isEmpty, "honest reads failed: \(siege.badReads)", sourceLocation: sourceLocation)
        #expect(
            siege.goodReads >= honestReads, "only \(siege.goodReads) honest reads",
            sourceLocation: sourceLocation)
        #expect(
            siege.slowestCall <= callBoundMilliseconds,
            "a table call took \(siege.slowestCall) ms (bound \(callBoundMilliseconds) ms)",
            sourceLocation: sourceLocation)
        #expect(setup.daemon.process.isRunning && setup.daemon.starts == 1, sourceLocation: sourceLocation)
    }

    /// Requestors that start INCR transfers of a 16 MiB text and never read on, that
    /// destroy their window mid-transfer, that ask for unknown targets, and a flood of
    /// 1,000 INCR requests (16 of which start a transfer: the cap per client).
    @Test func incrementalTransfersAbused() throws {
        let setup = try Setup()
        try CliptabClient.call(setup.client, "Copy", [s("t"), i(0), i(1)], timeout: 60_000)
        let siege = try Self.siege(
            setup,
            [
                ["stall", "120"], ["stall", "120"], ["stall", "120"], ["destroy", "5"], ["destroy", "5"],
                ["unknown", "300"], ["flood", "1000", "UTF8_STRING"],
            ], expected: Setup.big)
        Self.expectServed(siege, setup)
        for (index, result) in siege.results.enumerated() {
            switch index {
            case 0...2: #expect(result["incr"] as? Bool == true, "stalling requestor \(index): \(result)")
            case 3...4: #expect(result["started"] as? Int == 5, "destroying requestor: \(result)")
            case 5:
                #expect(result["refused"] as? Int == 300 && result["answered"] as? Int == 300, "\(result)")
            default:
                // All answered; INCR transfers are capped per X client (SelectionConfiguration).
                #expect(
                    result["answered"] as? Int == 1000 && result["converted"] as? Int == 16,
                    "flood: \(result)")
            }
        }
        // Stalled transfers are dropped after their timeout; the clipboard still works.
        let read = try ChildProcess.run(
            "xclip", ["-selection", "clipboard", "-o"], environment: setup.environment,
            timeoutMilliseconds: 30_000)
        #expect(read.standardOutput.count == Setup.big.utf8.count)
        print(
            "hostile X (INCR): 7 requestors (3 stalling, 10 windows destroyed mid-transfer, 300 unknown targets, "
                + "1,000 INCR requests at once); \(siege.goodReads) honest 16 MiB reads, \(siege.calls) table calls, "
                + "slowest \(Int(siege.slowestCall)) ms")
    }

    /// MULTIPLE requests with garbage parameters, floods of 1,000 requests, and unknown
    /// targets, against a short text.
    @Test func garbageAndFloods() throws {
        let setup = try Setup()
        try CliptabClient.call(setup.client, "Copy", [s("t"), i(0), i(0)])
        let siege = try Self.siege(
            setup,
            [
                ["multiple"], ["flood", "1000", "UTF8_STRING"], ["flood", "1000", "TARGETS"],
                ["unknown", "1000"],
            ], expected: Setup.small)
        Self.expectServed(siege, setup)
        try #require(siege.results.count == 4, "\(siege.results)")
        let multiple = siege.results[0]
        for (name, answer) in multiple {
            #expect(answer as? String != "none", "MULTIPLE \(name) got no answer")
        }
        for name in ["odd", "format8", "missing"] {
            #expect(
                multiple[name] as? String == "refused", "MULTIPLE \(name): \(multiple[name] ?? "nothing")")
        }
        #expect(multiple["many"] as? String == "converted")
        #expect(multiple.count == 9, "\(multiple)")
        #expect(siege.results[1]["converted"] as? Int == 1000, "flood: \(siege.results[1])")
        #expect(siege.results[2]["converted"] as? Int == 1000, "flood: \(siege.results[2])")
        #expect(siege.results[3]["refused"] as? Int == 1000, "unknown: \(siege.results[3])")
        print(
            "hostile X (garbage): 9 garbage MULTIPLE requests, 2,000 flooded requests, 1,000 unknown targets; "
                + "\(siege.goodReads) honest reads, \(siege.calls) table calls, slowest \(Int(siege.slowestCall)) ms"
        )
    }
}
