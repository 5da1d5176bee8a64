// SPDX-License-Identifier: MIT
import DaemonTestSupport
import Testing

/// The hostile-input catalogue (the benchmark's `hostile` suite, at the sizes of
/// `HostileCatalogue.cases(full: false)`): each case against a fresh daemon while a client
/// probes `GetCell` every 50 ms and another reads a 1 MiB clipboard text with `xclip -o`.
///
/// The goals are the benchmark's with a margin for a debug build on a shared machine: time
/// goals doubled, 64 MiB more memory.
@Suite(.serialized)
struct HostileInputTests {
    /// Cases whose time or memory goal is not met yet (the benchmark prints their figures).
    ///
    /// A json import is still decoded into a whole tree before its rows are counted, so its
    /// peak passes the memory goal. They are held to what must never fail instead: a named
    /// outcome, a living daemon, an unchanged canary.
    static let goalsNotYetMet: Set<String> = ["import json 16 MiB rows"]

    /// The catalogue, by position (test arguments must be sendable).
    static let caseCount = HostileCatalogue.cases(full: false).count

    @Test(arguments: 0..<caseCount)
    func hostileInputCostsOnlyItsCaller(index: Int) throws {
        let hostile = HostileCatalogue.cases(full: false)[index]
        let measured = try HostileRunner.run(hostile)
        print("hostile: \(measured.row)")
        let missed = measured.missedGoals(timeFactor: 2, extraKiB: 64 << 10)
        if Self.goalsNotYetMet.contains(hostile.name) {
            let unsafe = missed.filter {
                $0.hasPrefix("the attack ended as") || $0 == "the daemon died"
                    || $0 == "the canary table changed"
            }
            #expect(unsafe.isEmpty, "\(hostile.name): \(unsafe) — \(measured.row)")
        } else {
            #expect(missed.isEmpty, "\(hostile.name): \(missed) — \(measured.row)")
        }
        #expect(measured.probeCalls > 0, "\(hostile.name): the probe made no call")
        if hostile.readsClipboard {
            #expect(measured.clipboardReads > 0, "\(hostile.name): nothing read the clipboard")
        }
    }

    /// Every name in the list of cases not yet at their goals is a case of the catalogue.
    @Test func casesNotYetAtTheirGoalsExist() {
        let names = Set(HostileCatalogue.cases(full: false).map(\.name))
        #expect(Self.goalsNotYetMet.isSubset(of: names))
    }
}
