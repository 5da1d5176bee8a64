// SPDX-License-Identifier: MIT
import CliptabClient
import CliptabCore
import DBus
import Glibc
import Posix

/// The clipboard's cost, each beside xclip doing the same in the same run on the same private
/// Xvfb: `cliptab copy T 0:0` then `xclip -o`, against `xclip -i` then `xclip -o`; and a
/// 10 MiB `xclip -o` from cliptabd against one from an `xclip -i` owner.
enum ClipboardBenchmark {
    /// Runs of each sequence (odd, so the median is one run).
    static let repetitions = 31
    /// Runs of each 10 MiB read.
    static let bigRepetitions = 11

    static func run() throws {
        let session = try BenchSession(name: "clipboard", withDisplay: true)
        let cliptab = try BenchSession.binary("cliptab")
        let xclip = try CLIBenchmark.which("xclip")
        let client = try BusConnection.connect(address: session.address)
        var big = String(repeating: "0123456789abcdef", count: (10 << 20) / 16)
        big.removeLast()
        big += "\n"
        let daemon = session.cliptab(client)
        try daemon.createTable("T")
        try daemon.insertRows(TableCell("T", section: 0, row: -1), ["a snippet to paste", big])
        let environment = session.environment
        let read = [xclip, "-selection", "clipboard", "-o"]
        let smallFile = session.root + "/small.txt"
        let bigFile = session.root + "/big.txt"
        try write("a snippet to paste", to: smallFile)
        try write(big, to: bigFile)

        // Both sequences must really move the text before they are timed.
        _ = try CLIBenchmark.timedRun([cliptab, "copy", "T", "0:0"], environment: environment)
        guard
            try ChildProcess.run(xclip, Array(read.dropFirst()), environment: environment).outputText
                == "a snippet to paste"
        else { throw CliptabError(.clipboardUnavailable, "xclip did not read what cliptab copied") }

        var ours: [UInt64] = []
        var theirs: [UInt64] = []
        for index in 0..<repetitions {
            // Interleaved, alternating which goes first.
            let cliptabSequence = {
                try CLIBenchmark.timedRun([cliptab, "copy", "T", "0:0"], environment: environment)
                    + CLIBenchmark.timedRun(read, environment: environment)
            }
            let xclipSequence = { try xclipCopyThenRead(xclip, smallFile, read, environment) }
            if index % 2 == 0 {
                ours.append(try cliptabSequence())
                theirs.append(try xclipSequence())
            } else {
                theirs.append(try xclipSequence())
                ours.append(try cliptabSequence())
            }
        }

        var bigOurs: [UInt64] = []
        var bigTheirs: [UInt64] = []
        for index in 0..<bigRepetitions {
            // Each read is timed right after its owner took the clipboard.
            try daemon.copy(TableCell("T", section: 0, row: 1))
            let fromUs = try CLIBenchmark.timedRun(read, environment: environment)
            // The xclip server exits by itself when the next Copy takes the clipboard.
            try startXclipOwner(xclip, bigFile, environment)
            let fromXclip = try CLIBenchmark.timedRun(read, environment: environment)
            if index > 0 {  // the first round warms caches
                bigOurs.append(fromUs)
                bigTheirs.append(fromXclip)
            }
        }
        let bigCopy = try copyBigRow(cliptab, xclip, bigFile, read, environment)
        try daemon.copy(TableCell("T", section: 0, row: 1))
        let check = try ChildProcess.run(xclip, Array(read.dropFirst()), environment: environment)
        guard check.standardOutput.count == big.utf8.count else {
            throw CliptabError(
                .clipboardUnavailable, "the 10 MiB read came back with \(check.standardOutput.count) bytes")
        }

        let sequence = CLIBenchmark.median(ours)
        let baseline = CLIBenchmark.median(theirs)
        let bigRead = CLIBenchmark.median(bigOurs)
        let bigBaseline = CLIBenchmark.median(bigTheirs)
        print("== clipboard (private Xvfb; whole-process wall times, medians; milliseconds)")
        let widths = [48, 10, 10, 8, 8]
        Report.row(["figure", "cliptab", "xclip", "ratio", "goal"], widths)
        Report.row(
            [
                "copy T 0:0, then xclip -o (\(repetitions) runs)", Report.number(sequence, 2),
                Report.number(baseline, 2), Report.number(sequence / baseline, 2),
                sequence <= baseline ? "met" : "MISSED",
            ], widths)
        Report.row(
            [
                "xclip -o of 10 MiB (\(bigRepetitions - 1) runs)", Report.number(bigRead, 2),
                Report.number(bigBaseline, 2), Report.number(bigRead / bigBaseline, 2),
                bigRead <= bigBaseline ? "met" : "MISSED",
            ], widths)
        bigCopy.report(
            widths, copyLabel: "10 MiB: copy -q / xclip -i FILE", pairLabel: "  each then xclip -o")
        print("goals: the cliptab sequence <= the xclip one; the 10 MiB read <= 1.0x the one from xclip -i;")
        print("       the 10 MiB copy <= 1.5x xclip -i, with its read back <= 1.25x")
    }

    /// `cliptab copy -q` of the 10 MiB row against `xclip -i` of the same bytes from a file,
    /// interleaved, each alone and followed by `read`.
    static func copyBigRow(
        _ cliptab: String, _ xclip: String, _ bigFile: String, _ read: [String],
        _ environment: [String: String]
    ) throws -> BigCopy {
        var figures = BigCopy()
        for index in 0..<BigCopy.repetitions {
            let ours = try CLIBenchmark.timedRun(
                [cliptab, "copy", "-q", "T", "0:1"], environment: environment)
            let oursRead = try CLIBenchmark.timedRun(read, environment: environment)
            let theirs = try CLIBenchmark.timedRun(
                [xclip, "-selection", "clipboard", "-i", bigFile], environment: environment)
            let theirsRead = try CLIBenchmark.timedRun(read, environment: environment)
            if index > 0 {  // the first round warms caches
                figures.add(ours: (ours, oursRead), theirs: (theirs, theirsRead))
            }
        }
        return figures
    }

    /// `xclip -i FILE` (which forks a server holding the clipboard and exits), then `read`:
    /// the whole sequence's wall time in nanoseconds.
    static func xclipCopyThenRead(
        _ xclip: String, _ file: String, _ read: [String], _ environment: [String: String]
    ) throws -> UInt64 {
        try CLIBenchmark.timedRun([xclip, "-selection", "clipboard", "-i", file], environment: environment)
            + CLIBenchmark.timedRun(read, environment: environment)
    }

    /// Makes an `xclip -i FILE` server own the clipboard, and returns once it does (its
    /// TARGETS, unlike cliptabd's, list no COMPOUND_TEXT).
    static func startXclipOwner(_ xclip: String, _ file: String, _ environment: [String: String]) throws {
        _ = try CLIBenchmark.timedRun(
            [xclip, "-selection", "clipboard", "-i", file], environment: environment)
        let deadline = MonotonicClock.milliseconds() + 10_000
        while MonotonicClock.milliseconds() < deadline {
            let targets = try ChildProcess.run(
                xclip, ["-selection", "clipboard", "-t", "TARGETS", "-o"], environment: environment)
            if targets.termination == .exited(0) && !targets.outputText.contains("COMPOUND_TEXT") { return }
            usleep(1000)
        }
        throw CliptabError(.clipboardUnavailable, "xclip did not take the clipboard")
    }

    /// Writes `text` to `path`.
    static func write(_ text: String, to path: String) throws {
        let result = try ChildProcess.run("sh", ["-c", "cat > \"$1\"", "sh", path], input: Array(text.utf8))
        guard result.termination == .exited(0) else {
            throw CliptabError(.storageFailure, "cannot write \(path): \(result.errorText)")
        }
    }
}
