// SPDX-License-Identifier: MIT
import CliptabCore
import Glibc
import Posix
import TestSupport

/// Issue 23's figure: `cliptab menu` on 1,000 rows on a headless sway (the layer-shell
/// popup), from the start to its first painted frame, beside `fuzzel --dmenu` fed the same
/// lines by `cat`, interleaved in one run.
///
/// Both frames are seen the same way, in the client's own protocol log (`WAYLAND_DEBUG=1`):
/// the first `wl_surface.commit` after a buffer was attached (`WaylandPickBenchmark.firstFrame`).
enum WaylandMenuBenchmark {
    /// Rounds; the first only warms caches.
    static let rounds = 32
    /// The rows offered.
    static let rows = 1_000

    static func run() throws {
        let fuzzel = try CLIBenchmark.which("fuzzel")
        let cliptab = try BenchSession.binary("cliptab")
        let sway = try HeadlessCompositor(.sway())
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
            ("cliptab menu t", "exec \(cliptab) menu t"),
            ("cat | fuzzel --dmenu", "cat \(file) | exec \(fuzzel) --dmenu"),
        ]
        var samples = [[Double]](repeating: [], count: subjects.count)
        var retries = 0
        for round in 0..<rounds {
            for (index, subject) in subjects.enumerated() {
                // fuzzel now and then still finds the lock of the one stopped just before:
                // that run is made again (and counted).
                var milliseconds: Double?
                for _ in 0..<5 where milliseconds == nil {
                    milliseconds = try WaylandPickBenchmark.firstFrame(sway, subject.1, environment: address)
                    if milliseconds == nil { retries += 1 }
                }
                guard let milliseconds else {
                    throw CliptabError(.storageFailure, "fuzzel found its lock taken five times")
                }
                if round > 0 { samples[index].append(milliseconds) }
            }
        }
        let medians = samples.map { $0.sorted()[$0.count / 2] }
        print(
            "== menu on Wayland (headless sway; start to the first frame, medians of \(rounds - 1) runs; ms; \(retries) fuzzel runs made again)"
        )
        let widths = [34, 10]
        for (subject, median) in zip(subjects, medians) {
            Report.row([subject.0, Report.number(median, 2)], widths)
        }
        let ratio = medians[0] / medians[1]
        Report.row(
            [
                "cliptab menu / fuzzel, \(rows) rows",
                Report.number(ratio, 2) + (ratio <= 1.0 ? "  ≤ 1.0 met" : "  ≤ 1.0 MISSED"),
            ],
            widths)
    }
}
