// SPDX-License-Identifier: MIT
import CliptabClient
import CliptabCore
import DBus
import Glibc
import Posix

/// Issue 13's figures, on a private Xvfb with a Tk entry as the target.
///
/// - latency: from the start of `cliptab copy T 0:0 --paste` to the text in the entry,
///   against `printf %s TEXT | xclip -selection clipboard -i && xdotool key ctrl+v`,
///   interleaved (goal <= 1.0x, while cliptab also restores the clipboard);
/// - restore correctness with a CPU hog on every core: ours against the classic "read the
///   clipboard, paste, sleep 100 ms, restore", counting the trials that delivered the wrong
///   text or left the wrong clipboard (goal 0 for ours).
///
/// `CLIPTAB_PASTE_TRIALS` sets the trials of each under load (default 200),
/// `CLIPTAB_PASTE_HOGS` the number of busy loops (default one per core).
enum PasteBenchmark {
    /// Runs of each latency sequence (odd, so the median is one run).
    static let repetitions = 31
    static let text = "a snippet to paste"

    static func run() throws {
        let session = try BenchSession(name: "paste", withDisplay: true)
        let cliptab = try BenchSession.binary("cliptab")
        let xclip = try CLIBenchmark.which("xclip")
        _ = try CLIBenchmark.which("xdotool")
        let client = try BusConnection.connect(address: session.address)
        try session.cliptab(client).createTable("T")
        try session.cliptab(client).insertRow(TableCell("T", section: 0, row: 0), text)
        let entry = try TkEntry(session: session)
        let environment = session.environment

        let ours = [cliptab, "copy", "T", "0:0", "--paste"]
        let classic = [
            "/bin/sh", "-c", "printf %s \"$1\" | \(xclip) -selection clipboard -i && xdotool key ctrl+v",
            "sh",
            text,
        ]
        // Both must really paste before they are timed.
        for command in [ours, classic] {
            _ = try entry.paste(command, environment: environment)
        }
        var oursTimes: [UInt64] = []
        var classicTimes: [UInt64] = []
        for index in 0..<repetitions {
            let order = index % 2 == 0 ? [true, false] : [false, true]
            for isOurs in order {
                let elapsed = try entry.paste(isOurs ? ours : classic, environment: environment)
                if isOurs { oursTimes.append(elapsed) } else { classicTimes.append(elapsed) }
            }
        }
        let latency = CLIBenchmark.median(oursTimes)
        let baseline = CLIBenchmark.median(classicTimes)
        print("== paste (private Xvfb, Tk entry; from the command's start to the text in the entry)")
        let widths = [52, 10, 10, 8, 8]
        Report.row(["figure (medians, ms)", "cliptab", "classic", "ratio", "goal"], widths)
        Report.row(
            [
                "copy T 0:0 --paste vs xclip -i && xdotool (\(repetitions))", Report.number(latency, 2),
                Report.number(baseline, 2), Report.number(latency / baseline, 2),
                latency <= baseline ? "met" : "MISSED",
            ], widths)

        let trials = Int(String(cString: getenv("CLIPTAB_PASTE_TRIALS") ?? strdup("200"))) ?? 200
        let restoring = [
            "/bin/sh", "-c",
            "old=$(\(xclip) -selection clipboard -o); printf %s \"$1\" | \(xclip) -selection clipboard -i"
                + " && xdotool key ctrl+v; sleep 0.1; printf %s \"$old\" | \(xclip) -selection clipboard -i",
            "sh", text,
        ]
        let cores = max(Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), 1)
        let hogCount = Int(String(cString: getenv("CLIPTAB_PASTE_HOGS") ?? strdup("\(cores)"))) ?? cores
        let hogs = try (0..<max(hogCount, 1)).map { _ in
            // Bounded: each stops by itself after ten minutes if this process dies first.
            try ChildProcess.spawn(
                "timeout", ["600", "sh", "-c", "while :; do :; done"], stdout: .null, stderr: .null)
        }
        defer { for hog in hogs { hog.terminate(graceMilliseconds: 100) } }
        var oursWrong = (text: 0, clipboard: 0)
        var classicWrong = (text: 0, clipboard: 0)
        for trial in 0..<trials {
            for isOurs in trial % 2 == 0 ? [true, false] : [false, true] {
                let previous = "previous clipboard \(trial)\(isOurs ? "a" : "b")"
                try ClipboardBenchmark.write(previous, to: session.root + "/previous.txt")
                try ClipboardBenchmark.startXclipOwner(xclip, session.root + "/previous.txt", environment)
                let delivered = try entry.pasteAndCheck(isOurs ? ours : restoring, environment: environment)
                let read = try ChildProcess.run(
                    xclip, ["-selection", "clipboard", "-o"], environment: environment)
                let clipboardRight = read.outputText == previous
                if isOurs {
                    if !delivered { oursWrong.text += 1 }
                    if !clipboardRight { oursWrong.clipboard += 1 }
                } else {
                    if !delivered { classicWrong.text += 1 }
                    if !clipboardRight { classicWrong.clipboard += 1 }
                }
            }
        }
        print("== restore under load (\(hogs.count) CPU hogs, \(trials) trials each, interleaved)")
        let loadWidths = [52, 14, 16, 8]
        Report.row(["sequence", "wrong text", "wrong clipboard", "goal"], loadWidths)
        Report.row(
            [
                "cliptab copy T 0:0 --paste", "\(oursWrong.text)", "\(oursWrong.clipboard)",
                oursWrong.text + oursWrong.clipboard == 0 ? "met" : "MISSED",
            ], loadWidths)
        Report.row(
            [
                "classic: read, paste, sleep 100 ms, restore", "\(classicWrong.text)",
                "\(classicWrong.clipboard)", "-",
            ],
            loadWidths)
        print("goals: the paste <= 1.0x the classic sequence; 0 wrong for cliptab under load")
    }
}
