// SPDX-License-Identifier: MIT
import DaemonTestSupport

/// The hostile-input catalogue at full size against the release daemon, a fresh one per
/// case, each while a client probes `GetCell` every 50 ms and another reads a 1 MiB
/// clipboard text with `xclip -o`; prints one line per case, its worst waits as multiples of
/// an unattacked daemon's in the same run, and the goals it misses.
///
/// `CLIPTAB_HOSTILE_CASES=TEXT` runs only the cases whose name contains TEXT.
enum HostileBenchmark {
    /// Runs every case and prints the table.
    static func run() throws {
        let cliptabd = try BenchSession.binary("cliptabd")
        print(
            "hostile: goals: probe ≤ 1000 ms, clipboard ≤ 2000 ms, call ≤ 5000 ms (messages up to 16 MiB), "
                + "peak ≤ 4 × message + 64 MiB"
        )
        print(HostileMeasurement.header)
        // The baseline: the same probes against a fresh daemon that nobody attacks.
        let idle = try HostileRunner.run(
            HostileCase("idle (baseline)", largestMessageBytes: 0) { _ in "done" }, daemonExecutable: cliptabd
        )
        print(idle.row)
        var missed = 0
        for hostile in HostileCatalogue.selected(full: true) {
            let measured = try HostileRunner.run(hostile, daemonExecutable: cliptabd)
            print(measured.row)
            print("    against idle: " + ratios(measured, idle))
            if !measured.timeGoalsApply {
                print(
                    "    (a message over 16 MiB: the time goals do not apply, its times are for information)")
            }
            for goal in measured.missedGoals() {
                print("    MISSED: \(goal)")
                missed += 1
            }
        }
        print("hostile: \(missed) goals missed")
    }

    /// The case's worst probe and clipboard waits as multiples of the idle run's.
    static func ratios(_ measured: HostileMeasurement, _ idle: HostileMeasurement) -> String {
        func ratio(_ value: UInt64, _ base: UInt64) -> String {
            Report.number(Double(value) / Double(max(base, 1)), 1) + "x"
        }
        var text = "probe max " + ratio(measured.probeWorstMilliseconds, idle.probeWorstMilliseconds)
        if let clip = measured.clipboardWorstMilliseconds, let base = idle.clipboardWorstMilliseconds {
            text += ", clipboard max " + ratio(clip, base)
        }
        return text
    }
}
