// SPDX-License-Identifier: MIT
import CliptabClient
import CliptabCore
import DBus
import Posix
import TestSupport

/// Issue 41's figure, on a private Xvfb with openbox and a Tk entry as the target: a key of
/// `[keys]` grabbed by cliptabd (`xdotool key super+alt+i`) against the same keys run as a
/// window manager's binding runs a command, a `cliptab copy T 0:0 --paste` process per press
/// (`xdotool key super+alt+u; cliptab copy …`), each from its start to the text in the entry,
/// interleaved (goal <= 0.5x).
///
/// openbox sets the focus as window managers do: without one, Tk gives up the focus at a
/// grab's FocusOut and never takes it back (see docs/desktops.md).
enum KeysBenchmark {
    /// Runs of each sequence (odd, so the median is one run).
    static let repetitions = 31

    static func run() throws {
        let session = try BenchSession(
            name: "keys", withDisplay: true,
            config: "[keys]\nSuper+Alt+I = paste T 0:0\n[paste_to_focus]\ntimeout_ms = 3000\n")
        let cliptab = try BenchSession.binary("cliptab")
        let xdotool = try CLIBenchmark.which("xdotool")
        guard let display = session.process.virtualDisplay else {
            throw FixtureError("the session has no display")
        }
        try display.startWindowManager(.openbox)
        let client = try BusConnection.connect(address: session.address)
        try session.cliptab(client).createTable("T")
        _ = try session.cliptab(client).insertRow(TableCell("T", section: 0, row: 0), PasteBenchmark.text)
        let entry = try TkEntry(session: session)
        let environment = session.environment

        // No delay after the keys: xdotool's 12 ms sleep would be timed on both sides.
        let ours = [xdotool, "key", "--delay", "0", "super+alt+i"]
        // Super+Alt+U is bound to nothing: the entry ignores it (Alt held), as a window
        // manager would take it; then the command its binding would start.
        let perPress = [
            "/bin/sh", "-c", "\"$1\" key --delay 0 super+alt+u && exec \"$2\" copy T 0:0 --paste", "sh",
            xdotool,
            cliptab,
        ]
        for command in [ours, perPress] {
            _ = try entry.paste(command, environment: environment)
        }
        var oursTimes: [UInt64] = []
        var perPressTimes: [UInt64] = []
        for index in 0..<repetitions {
            let order = index % 2 == 0 ? [true, false] : [false, true]
            for isOurs in order {
                let elapsed = try entry.paste(isOurs ? ours : perPress, environment: environment)
                if isOurs { oursTimes.append(elapsed) } else { perPressTimes.append(elapsed) }
            }
        }
        let latency = CLIBenchmark.median(oursTimes)
        let baseline = CLIBenchmark.median(perPressTimes)
        print("== keys (private Xvfb, openbox, Tk entry; from xdotool's start to the text in the entry)")
        let widths = [52, 10, 10, 8, 8]
        Report.row(["figure (medians, ms)", "[keys]", "process", "ratio", "goal"], widths)
        Report.row(
            [
                "grabbed key vs a cliptab --paste per press (\(repetitions))", Report.number(latency, 2),
                Report.number(baseline, 2), Report.number(latency / baseline, 2),
                latency <= 0.5 * baseline ? "met" : "MISSED",
            ], widths)
    }
}
