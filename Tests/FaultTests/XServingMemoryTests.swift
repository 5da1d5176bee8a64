// SPDX-License-Identifier: MIT
import CliptabClient
import DaemonTestSupport
import Foundation
import Posix
import TestSupport
import Testing

/// The daemon's memory while X clients flood it with requests for a converted form of a
/// 16 MiB text: one converted copy, shared, whatever the number of requests.
@Suite(.serialized)
struct XServingMemoryTests {
    /// `VmHWM` (peak resident set) of `pid`, in KiB.
    static func peakKiB(_ pid: pid_t) -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]) ?? 0
        }
        return 0
    }

    @Test("1,000 STRING requests for a 16 MiB text raise the daemon's peak by about one copy")
    func stringFloodSharesOneCopy() throws {
        let setup = try HostileXTests.Setup()
        try CliptabClient.call(setup.client, "Copy", [s("t"), i(0), i(1)], timeout: 60_000)
        let pid = setup.daemon.process.pid
        let before = Self.peakKiB(pid)
        let floods = try (0..<2).map { _ in try setup.requestor(["flood", "1000", "STRING"]) }
        var results: [String] = []
        for flood in floods {
            results.append(flood.readLine(timeoutMilliseconds: 120_000) ?? "")
            flood.terminate()
        }
        let grown = Self.peakKiB(pid) - before
        // The STRING form is about 15 MiB; a copy per request would be gigabytes.
        #expect(grown < 64 << 10, "the peak grew by \(grown) KiB")
        for line in results {
            let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Int] ?? [:]
            #expect(object["answered"] == 1000, "\(line)")
            #expect(object["converted"] == 16, "INCR transfers are capped per client: \(line)")
        }
        // Another client still reads the whole text.
        let read = try ChildProcess.run(
            "xclip", ["-selection", "clipboard", "-o"], environment: setup.environment,
            timeoutMilliseconds: 60_000)
        #expect(read.standardOutput.count == HostileXTests.Setup.big.utf8.count)
        print("X serving memory: 2 clients × 1,000 STRING requests of a 16 MiB text: peak RSS +\(grown) KiB")
    }
}
