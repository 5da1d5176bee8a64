// SPDX-License-Identifier: MIT
import Foundation
import Posix
import Testing
import X11Selection

/// Wall times of 10 MiB transfers, for the record; run with `CLIPTAB_X11_TIMINGS=1`.
@Suite(.serialized, .enabled(if: ProcessInfo.processInfo.environment["CLIPTAB_X11_TIMINGS"] != nil))
struct TimingTests {
    private let runs = 5

    private func median(_ values: [UInt64]) -> UInt64 { values.sorted()[values.count / 2] }

    @Test func tenMebibytes() throws {
        let harness = try Harness()
        let text = Sample.large(10 << 20)
        let command = ["xclip", "-selection", "clipboard", "-o"]

        try harness.service.own(.clipboard, text: text, secret: false)
        var fromService: [UInt64] = []
        for _ in 0..<runs {
            let started = MonotonicClock.nanoseconds()
            let result = try harness.run(command)
            fromService.append((MonotonicClock.nanoseconds() - started) / 1_000_000)
            #expect(result.output.count == text.count)
        }
        harness.service.release(.clipboard)

        let owner = try harness.startOwner(["xclip", "-quiet", "-i", "-selection", "clipboard"], text: text)
        defer { owner.terminate(graceMilliseconds: 1000) }
        var fromXclip: [UInt64] = []
        var serviceReads: [UInt64] = []
        for _ in 0..<runs {
            let started = MonotonicClock.nanoseconds()
            let result = try harness.run(command)
            fromXclip.append((MonotonicClock.nanoseconds() - started) / 1_000_000)
            #expect(result.output.count == text.count)

            let readStarted = MonotonicClock.nanoseconds()
            #expect(try harness.read()?.get().count == text.count)
            serviceReads.append((MonotonicClock.nanoseconds() - readStarted) / 1_000_000)
        }
        print("10 MiB, median of \(runs), ms:")
        print("  `xclip -o` from SelectionService owner: \(median(fromService)) \(fromService)")
        print("  `xclip -o` from `xclip -i` owner: \(median(fromXclip)) \(fromXclip)")
        print("  SelectionService.readText from `xclip -i` owner: \(median(serviceReads)) \(serviceReads)")
    }
}
