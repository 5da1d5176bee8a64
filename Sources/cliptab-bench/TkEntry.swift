// SPDX-License-Identifier: MIT
import CliptabCore
import Posix
import TestSupport

/// A Tk entry that prints its whole text as a line after every change.
final class TkEntry {
    private let process: ChildProcess
    private var content = ""

    init(session: BenchSession) throws {
        let script = HelperPrograms.source("tk_bench_entry.py")
        process = try ChildProcess.spawn(
            "python3", ["-c", script], environment: session.environment, stdout: .pipe, stderr: .null)
        guard process.readLine(timeoutMilliseconds: 20_000) == "ready" else {
            throw CliptabError(.clipboardUnavailable, "the Tk entry did not start (python3-tk)")
        }
    }

    deinit { process.terminate(graceMilliseconds: 500) }

    /// Runs `command` and returns the nanoseconds from its start until the entry shows
    /// the pasted text; waits for the command to end before returning (not timed).
    func paste(_ command: [String], environment: [String: String]) throws -> UInt64 {
        let start = MonotonicClock.nanoseconds()
        let child = try ChildProcess.spawn(
            command[0], Array(command.dropFirst()), environment: environment, stdout: .null, stderr: .null)
        let expected = content + PasteBenchmark.text
        while true {
            guard let line = process.readLine(timeoutMilliseconds: 10_000) else {
                throw CliptabError(.clipboardUnavailable, "no paste reached the entry: \(command)")
            }
            content = line
            if line == expected { break }
        }
        let elapsed = MonotonicClock.nanoseconds() - start
        _ = child.waitForExit()
        return elapsed
    }

    /// Runs `command` to its end, then tells whether the entry got exactly the text once
    /// (waiting up to 2 s for it, and 50 ms more for a second paste).
    func pasteAndCheck(_ command: [String], environment: [String: String]) throws -> Bool {
        let before = content
        // Not ChildProcess.run: the xclip server the classic sequence leaves behind would
        // hold its output pipes open until the next owner replaces it.
        let child = try ChildProcess.spawn(
            command[0], Array(command.dropFirst()), environment: environment, stdout: .null, stderr: .null)
        _ = child.waitForExit()
        var wait = 2000
        while let line = process.readLine(timeoutMilliseconds: wait) {
            content = line
            wait = 50
        }
        return content == before + PasteBenchmark.text
    }
}
