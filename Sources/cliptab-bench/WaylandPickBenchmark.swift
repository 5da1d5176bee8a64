// SPDX-License-Identifier: MIT
import CliptabCore
import Glibc
import Posix
import TestSupport

/// Issue 22's pick figure: `cliptab pick --launcher fuzzel` on 1,000 rows, from the start
/// to the launcher's first painted frame, beside `fuzzel --dmenu` fed the same lines by
/// `cat`, interleaved in one run on one headless sway.
///
/// The frame is seen in fuzzel's own protocol log (`WAYLAND_DEBUG=1`, the same for both):
/// the first `wl_surface.commit` after a buffer was attached to that surface, timed when its
/// line reaches the benchmark.
enum WaylandPickBenchmark {
    /// Rounds; the first only warms caches.
    static let rounds = 16
    /// The rows offered.
    static let rows = 1_000

    static func run() throws {
        let fuzzel = try CLIBenchmark.which("fuzzel")
        let cliptab = try BenchSession.binary("cliptab")
        let sway = try HeadlessSway()
        let bus = try sway.startBus()
        let address = ["DBUS_SESSION_BUS_ADDRESS": bus.address]
        let daemon = try sway.spawn(
            try BenchSession.binary("cliptabd"), environment: address, stdout: .null, stderr: .null)
        defer { daemon.terminate(graceMilliseconds: 2000) }
        let lines = (0..<rows).map { "snippet \($0): some text to paste, \($0 * 7919 % 100_003)" }
        let file = sway.homeDirectory + "/lines.txt"
        try ClipboardBenchmark.write(lines.joined(separator: "\n") + "\n", to: file)
        chmod(file, 0o644)
        let deadline = MonotonicClock.milliseconds() + 20_000
        while try sway.run(cliptab, ["tables"], environment: address).termination != .exited(0) {
            guard MonotonicClock.milliseconds() < deadline else {
                throw CliptabError(.storageFailure, "cliptabd did not answer on the session's bus")
            }
            usleep(20_000)
        }
        let imported = try sway.run(
            cliptab, ["import", "t", file, "--format", "lines"], environment: address)
        guard imported.termination == .exited(0) else {
            throw CliptabError(.storageFailure, "import: \(imported.errorText)")
        }
        let subjects = [
            ("cliptab pick --launcher fuzzel", "exec \(cliptab) pick t --launcher \(fuzzel) --action print"),
            ("cat | fuzzel --dmenu", "cat \(file) | exec \(fuzzel) --dmenu"),
        ]
        var samples = [[Double]](repeating: [], count: subjects.count)
        for round in 0..<rounds {
            for (index, subject) in subjects.enumerated() {
                let milliseconds = try firstFrame(sway, subject.1, environment: address)
                if round > 0 { samples[index].append(milliseconds) }
            }
        }
        let medians = samples.map { $0.sorted()[$0.count / 2] }
        print(
            "== pick on Wayland (headless sway; start to fuzzel's first frame, medians of \(rounds - 1) runs; ms)"
        )
        let widths = [34, 10]
        for (subject, median) in zip(subjects, medians) {
            Report.row([subject.0, Report.number(median, 2)], widths)
        }
        let ratio = medians[0] / medians[1]
        Report.row(
            [
                "cliptab / cat, \(rows) rows",
                Report.number(ratio, 2) + (ratio <= 1.1 ? "  ≤ 1.1 met" : "  ≤ 1.1 MISSED"),
            ],
            widths)
    }

    /// Runs `command` in the session with fuzzel's protocol log on; the milliseconds from the
    /// start to its first frame. The launcher is then stopped with its process group.
    static func firstFrame(_ sway: HeadlessSway, _ command: String, environment: [String: String]) throws
        -> Double
    {
        var extra = environment
        extra["WAYLAND_DEBUG"] = "1"
        let start = MonotonicClock.nanoseconds()
        // The log goes to stderr: made the pipe read here, the launcher's own output dropped.
        let child = try sway.spawn("/bin/sh", ["-c", "(\(command)) 2>&1 >/dev/null"], environment: extra)
        defer {
            kill(-child.pid, SIGTERM)
            child.waitForExit(timeoutMilliseconds: 5000)
        }
        var attached: Set<Substring> = []
        while let line = child.readLine(timeoutMilliseconds: 20_000) {
            // "[1234.567]  -> wl_surface@17.attach(wl_buffer@40, 0, 0)", then "… -> wl_surface@17.commit()".
            guard let arrow = line.range(of: "-> wl_surface@") else { continue }
            let rest = line[arrow.upperBound...]
            let id = rest.prefix(while: \.isNumber)
            let call = rest.dropFirst(id.count)
            if call.hasPrefix(".attach(wl_buffer@") {
                attached.insert(id)
            } else if call.hasPrefix(".commit()") && attached.contains(id) {
                return Double(MonotonicClock.nanoseconds() - start) / 1e6
            }
        }
        throw CliptabError(.storageFailure, "no frame from: \(command)")
    }
}
