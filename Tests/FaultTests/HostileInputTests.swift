// SPDX-License-Identifier: MIT
import DaemonTestSupport
import Testing

/// The hostile-input catalogue (the benchmark's `hostile` suite, at the sizes of
/// `HostileCatalogue.cases(full: false)`): each case against a fresh daemon while a client
/// probes `GetCell` every 50 ms and another reads a 1 MiB clipboard text with `xclip -o`.
///
/// The goals are the benchmark's with a margin for a debug build on a shared machine: time
/// goals doubled, 64 MiB more memory. As in the issue, the time goals speak of messages up
/// to 16 MiB; the one larger case is held to the memory goal and the safety checks.
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
        let missed = measured.missedGoals(timeFactor: 2, extraKiB: 64 << 10)
        #expect(missed.isEmpty, "\(hostile.name): \(missed) — \(measured.row)")
        #expect(measured.probeCalls > 0, "\(hostile.name): the probe made no call")
        if hostile.readsClipboard {
            #expect(measured.clipboardReads > 0, "\(hostile.name): nothing read the clipboard")
        }
    }
}
