// SPDX-License-Identifier: MIT
import DaemonTestSupport
import Testing

/// The hostile-input catalogue (the benchmark's `hostile` suite, at the sizes of
/// `HostileCatalogue.cases(full: false)`): each case against a fresh daemon while a client
/// probes `GetCell` every 50 ms and another reads a 1 MiB clipboard text with `xclip -o`.
///
/// The bounds are counted, not timed: every probe call and clipboard read answered (each
/// within its generous hang guard), a named outcome, the memory goal with 64 MiB of margin
/// for a debug build, the daemon alive, the canary unchanged. How fast the probes were
/// answered is the release benchmark's question (`cliptab-bench hostile`).
/// `CLIPTAB_HOSTILE_CASES=TEXT` runs only the cases whose name contains TEXT.
@Suite(.serialized)
struct HostileInputTests {
    /// The catalogue, by position (test arguments must be sendable).
    static let caseCount = HostileCatalogue.selected(full: false).count

    @Test(arguments: 0..<caseCount)
    func hostileInputCostsOnlyItsCaller(index: Int) throws {
        let hostile = HostileCatalogue.selected(full: false)[index]
        let measured = try HostileRunner.run(hostile)
        print("hostile: \(measured.row)")
        let missed = measured.missedBounds(extraKiB: 64 << 10)
        #expect(missed.isEmpty, "\(hostile.name): \(missed) — \(measured.row)")
        #expect(measured.probeCalls > 0, "\(hostile.name): the probe made no call")
        if hostile.readsClipboard {
            #expect(measured.clipboardReads > 0, "\(hostile.name): nothing read the clipboard")
        }
    }
}
