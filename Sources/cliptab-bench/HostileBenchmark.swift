// SPDX-License-Identifier: MIT
import DaemonTestSupport

/// The hostile-input catalogue at full size against the release daemon, a fresh one per
/// case, each while a client probes `GetCell` every 50 ms and another reads a 1 MiB
/// clipboard text with `xclip -o`; prints one line per case and the goals it misses.
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
        var missed = 0
        for hostile in HostileCatalogue.selected(full: true) {
            let measured = try HostileRunner.run(hostile, daemonExecutable: cliptabd)
            print(measured.row)
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
}
