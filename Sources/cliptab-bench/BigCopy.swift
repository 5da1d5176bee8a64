// SPDX-License-Identifier: MIT

/// The copy of a 10 MiB row beside the clipboard tool's own copy of the same bytes from a
/// file (`xclip -i`, `wl-copy`), and each followed by a read of the whole text: issue 36's
/// goals, 1.5x for the copy and 1.25x for the copy with its read.
struct BigCopy {
    /// Runs of each (the first, which warms caches, not counted): more than the other 10 MiB
    /// figures, since a read of INCR chunks varies with the machine's load and the goals
    /// stand on medians.
    static let repetitions = 21
    /// The most the copy may take, as a multiple of the tool's.
    static let copyGoal = 1.5
    /// The most the copy and its read may take, as a multiple of the tool's.
    static let pairGoal = 1.25

    /// (copy, read) wall times in nanoseconds, cliptab's and the tool's, one pair a run.
    private(set) var ours: [(copy: UInt64, read: UInt64)] = []
    private(set) var theirs: [(copy: UInt64, read: UInt64)] = []

    /// Records one run of each.
    mutating func add(ours: (UInt64, UInt64), theirs: (UInt64, UInt64)) {
        self.ours.append(ours)
        self.theirs.append(theirs)
    }

    /// Prints the copy's row and the copy-and-read's row with their ratios and goals.
    func report(_ widths: [Int], copyLabel: String, pairLabel: String) {
        let runs = " (\(ours.count) runs)"
        let rows: [(String, [UInt64], [UInt64], Double)] = [
            (copyLabel + runs, ours.map(\.copy), theirs.map(\.copy), Self.copyGoal),
            (pairLabel, ours.map { $0.copy + $0.read }, theirs.map { $0.copy + $0.read }, Self.pairGoal),
        ]
        for (label, mine, other, goal) in rows {
            let subject = CLIBenchmark.median(mine)
            let baseline = CLIBenchmark.median(other)
            let ratio = subject / baseline
            Report.row(
                [
                    label, Report.number(subject, 2), Report.number(baseline, 2), Report.number(ratio, 2),
                    ratio <= goal ? "met" : "MISSED",
                ], widths)
        }
    }
}
