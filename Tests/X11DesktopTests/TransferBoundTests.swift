// SPDX-License-Identifier: MIT
import Foundation
import Posix
import TestSupport
import Testing

@testable import X11Desktop

/// What serving costs per request: converted forms shared between requests, INCR
/// transfers and MULTIPLE pairs capped, a flooding client refused while others are served.
@Suite(.serialized)
struct TransferBoundTests {
    /// A requestor through libX11 (ctypes): `flood COUNT SECONDS` asks for STRING into
    /// COUNT properties of one window, never reading, prints the answers, then stays
    /// connected SECONDS; `multiple PAIRS` sends one MULTIPLE of PAIRS UTF8_STRING pairs and
    /// prints how many pairs were converted.
    static let requestor =
        xlibPythonPrelude + HelperPrograms.source("flood_requestor.py")

    static func decode(_ line: String) -> [String: Int] {
        (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Int] ?? [:]
    }

    @Test("a flood of STRING requests shares one converted copy; transfers past the cap are refused")
    func floodSharesAndIsCapped() throws {
        let harness = try Harness(
            configuration: SelectionConfiguration(maximumTransfers: 128, maximumTransfersPerClient: 16))
        // 4 MiB of two-byte characters: each STRING request would convert 2 MiB of Latin-1.
        let text = Array(String(repeating: "é", count: 2 << 20).utf8)
        try harness.service.own(.clipboard, text: text, secret: false)
        let flood = RunningClient(
            try harness.spawn("python3", ["-c", Self.requestor, "flood", "200", "20"]))
        defer { flood.process.signal(SIGKILL) }
        harness.pump(milliseconds: 20_000) { harness.service.activeTransferCount >= 16 }
        // Until the flood has every answer (it prints them then): the rest are refused.
        #expect(harness.pump(milliseconds: 20_000) { flood.hasOutput }, "the flood did not get 200 answers")
        #expect(harness.service.activeTransferCount == 16)
        // 16 stalled transfers of private 2 MiB copies would hold 32 MiB; one shared copy 2.
        // (Counted by the service: the test process's resident set also holds what the
        // suites running beside this one allocate.)
        #expect(
            harness.service.transferHeldBytes == 2 << 20,
            "the flood's transfers hold \(harness.service.transferHeldBytes) bytes")
        // Another client is served meanwhile, by INCR, in full.
        let read = try harness.run(["xclip", "-selection", "clipboard", "-t", "STRING", "-o"])
        #expect(read.output.count == 2 << 20)
        #expect(read.output.allSatisfy { $0 == 0xE9 })
    }

    @Test("a MULTIPLE of 4,000 pairs converts the first 64 and fails the rest")
    func multiplePairsCapped() throws {
        let harness = try Harness()
        try harness.service.own(.clipboard, text: Array("small".utf8), secret: false)
        let start = MonotonicClock.milliseconds()
        let result = try harness.run(["python3", "-c", Self.requestor, "multiple", "4000"])
        let answer = Self.decode(result.outputText.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(answer["answered"] == 1, "\(result.outputText)")
        #expect(answer["pairs"] == 4000)
        #expect(answer["converted"] == 64)
        #expect(MonotonicClock.milliseconds() - start < 20_000)
    }

    @Test("every STRING request gets the same converted buffer")
    func convertedOnce() throws {
        let harness = try Harness()
        let forms = ConvertedForms()
        let text = WipingBuffer.copying(Array("grüße".utf8))
        #expect(forms.latin1(of: text).buffer === forms.latin1(of: text).buffer)
        #expect(forms.ascii(of: text) === forms.ascii(of: text))
        let compound = forms.compoundText(of: text, connection: harness.service.connection)
        #expect(compound === forms.compoundText(of: text, connection: harness.service.connection))
    }
}
