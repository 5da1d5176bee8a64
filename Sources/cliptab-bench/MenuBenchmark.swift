// SPDX-License-Identifier: MIT
import CliptabClient
import CliptabCore
import DBus
import Glibc
import PopupWindow
import Posix

/// Issue 14's figures: the time from starting a menu to its window mapped and painted, for
/// `cliptab menu` (rows from the daemon) beside `dmenu -l 20` and `rofi -dmenu` (the same
/// rows from a file on stdin), interleaved in one run on one Xvfb; and issue 24's: the
/// popup on rows of one line of 1 MB, and of 20,000 characters no font has, against the
/// same number of short rows.
enum MenuBenchmark {
    /// Rounds; each runs every menu once (the first round only warms caches).
    static let rounds = 16

    /// One menu to time: its label and the shell command that starts it.
    struct Subject {
        let label: String
        let command: String
    }

    /// How many rows the long-row tables have (the same as the short table).
    static let longRowCount = 20

    /// The long-row tables: one line of 1 MB, and 20,000 characters no installed font has
    /// (the Private Use Areas); `short` holds rows of a few words.
    static var longRows: [(String, String)] {
        var unknown = String.UnicodeScalarView()
        var value: UInt32 = 0xE000
        var made = 0
        while made < 20_000 {
            if let scalar = Unicode.Scalar(value) {
                unknown.append(scalar)
                made += 1
            }
            value = value == 0xF8FF ? 0xF0000 : value + 1
        }
        return [
            ("short", "some text to paste"), ("megabyte", String(repeating: "x", count: 1_000_000)),
            ("unknown", String(unknown)),
        ]
    }

    static func run() throws {
        let session = try BenchSession(name: "menu", withDisplay: true)
        let cliptab = try BenchSession.binary("cliptab")
        let popup = try BenchSession.binary("cliptab-menu")
        let dmenu = try CLIBenchmark.which("dmenu")
        let rofi = try CLIBenchmark.which("rofi")
        let client = try BusConnection.connect(address: session.address)
        for count in [1000, 100_000] {
            let lines = (0..<count).map { "snippet \($0): some text to paste, \($0 * 7919 % 100_003)" }
            let data = lines.joined(separator: "\n") + "\n"
            try session.cliptab(client).importTable("t\(count)", format: "lines", data: data, replace: true)
            try ClipboardBenchmark.write(data, to: session.root + "/t\(count).txt")
        }
        for (table, line) in longRows {
            let rows = (0..<longRowCount).map { "\($0) " + line }
            try session.cliptab(client).importTable(
                table, format: "lines", data: rows.joined(separator: "\n") + "\n", replace: true)
        }
        let subjects = [
            Subject(label: "cliptab menu, 1,000 rows", command: "exec \(cliptab) menu t1000"),
            Subject(
                label: "dmenu -l 20, 1,000 lines", command: "exec \(dmenu) -l 20 < \(session.root)/t1000.txt"),
            Subject(
                label: "rofi -dmenu, 1,000 lines", command: "exec \(rofi) -dmenu < \(session.root)/t1000.txt"),
            Subject(label: "cliptab menu, 100,000 rows", command: "exec \(cliptab) menu t100000"),
            Subject(
                label: "dmenu -l 20, 100,000 lines",
                command: "exec \(dmenu) -l 20 < \(session.root)/t100000.txt"),
            // The popup alone, without the exec from cliptab (for reference: no goal).
            Subject(label: "cliptab-menu, 1,000 rows", command: "exec \(popup) t1000"),
            Subject(label: "cliptab menu, 20 short rows", command: "exec \(cliptab) menu short"),
            Subject(label: "cliptab menu, 20 rows of 1 MB", command: "exec \(cliptab) menu megabyte"),
            Subject(label: "cliptab menu, 20 rows unknown", command: "exec \(cliptab) menu unknown"),
        ]
        // The watcher's connection closes before the session stops its Xvfb.
        let medians = try withExtendedLifetime(session) {
            try measure(subjects, environment: session.environment, display: session.display)
        }
        print("== menu (private Xvfb; start to window mapped and painted, medians of \(rounds - 1) runs; ms)")
        let widths = [30, 10]
        for (subject, median) in zip(subjects, medians) {
            Report.row([subject.label, Report.number(median, 2)], widths)
        }
        let ratios = [
            ("cliptab / dmenu, 1,000", medians[0] / medians[1], 1.0),
            ("cliptab / rofi, 1,000", medians[0] / medians[2], 0.75),
            ("cliptab / dmenu, 100,000", medians[3] / medians[4], 0.7),
            // Such rows cost what short rows do: previews on the bus, the shown part measured.
            ("1 MB rows / short rows", medians[7] / medians[6], 1.25),
            ("unknown chars / short rows", medians[8] / medians[6], 1.25),
        ]
        Report.row(["ratio", "value", "goal", ""], [30, 10, 8, 8])
        for (label, ratio, goal) in ratios {
            Report.row(
                [label, Report.number(ratio, 2), "<= \(goal)", ratio <= goal ? "met" : "MISSED"],
                [30, 10, 8, 8])
        }
    }

    /// The median time to paint of each subject, in milliseconds.
    static func measure(_ subjects: [Subject], environment: [String: String], display: String?) throws
        -> [Double]
    {
        let connection = try PopupConnection.open(display)
        let watcher = MapWatcher(connection: connection)
        var samples = [[UInt64]](repeating: [], count: subjects.count)
        for round in 0..<rounds {
            // Interleaved, starting each round at another subject.
            for step in subjects.indices {
                let index = (step + round) % subjects.count
                let time = try timeToPaint(subjects[index].command, environment, watcher)
                if round > 0 { samples[index].append(time) }
            }
        }
        return samples.map { CLIBenchmark.median($0) }
    }

    /// Starts `command` under `sh`, waits until its window is mapped and painted, stops it;
    /// returns the wait in nanoseconds.
    static func timeToPaint(_ command: String, _ environment: [String: String], _ watcher: MapWatcher) throws
        -> UInt64
    {
        watcher.reset()
        let start = MonotonicClock.nanoseconds()
        let child = try ChildProcess.spawn(
            "sh", ["-c", command], environment: environment, stdout: .null, stderr: .null)
        let painted = watcher.waitForPaintedWindow(timeoutMilliseconds: 20_000)
        let elapsed = MonotonicClock.nanoseconds() - start
        child.terminate(graceMilliseconds: 2000)
        guard painted else {
            throw CliptabError(.clipboardUnavailable, "no window was painted within 20 s for: \(command)")
        }
        return elapsed
    }
}
