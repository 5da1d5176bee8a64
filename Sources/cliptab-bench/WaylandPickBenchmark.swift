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
    static let rounds = 32
    /// The rows offered.
    static let rows = 1_000

    static func run() throws {
        try compareFirstFrames(
            of: (
                "cliptab pick --launcher fuzzel",
                { cliptab, fuzzel in
                    "exec \(cliptab) pick t --launcher \(fuzzel) --action print"
                }
            ),
            heading: "pick on Wayland (headless sway; start to fuzzel's first frame",
            ratio: "cliptab / cat", goal: 1.1)
    }

    /// Times `subject` (its name, and its command given the paths of cliptab and fuzzel)
    /// against `cat | fuzzel --dmenu` on the same 1,000 rows, interleaved on one headless
    /// sway with a cliptabd holding them as table "t"; prints the medians and their ratio
    /// against `goal`.
    static func compareFirstFrames(
        of subject: (name: String, command: (String, String) -> String), heading: String, ratio label: String,
        goal: Double
    ) throws {
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
            (subject.name, subject.command(cliptab, fuzzel)),
            ("cat | fuzzel --dmenu", "cat \(file) | exec \(fuzzel) --dmenu"),
        ]
        var samples = [[Double]](repeating: [], count: subjects.count)
        var retries = 0
        for round in 0..<rounds {
            for (index, subject) in subjects.enumerated() {
                // fuzzel now and then still finds the lock of the one stopped just before: the
                // run is made again (and counted), never timed with a wait.
                var milliseconds: Double?
                for _ in 0..<5 where milliseconds == nil {
                    milliseconds = try firstFrame(sway, subject.1, environment: address)
                    if milliseconds == nil { retries += 1 }
                }
                guard let milliseconds else {
                    throw CliptabError(
                        .storageFailure, "fuzzel found its lock taken five times: \(subject.1)")
                }
                if round > 0 { samples[index].append(milliseconds) }
            }
        }
        let medians = samples.map { $0.sorted()[$0.count / 2] }
        print(
            "== \(heading), medians of \(rounds - 1) runs; ms; \(retries) runs made again, the lock of the one before still held)"
        )
        let widths = [34, 10]
        for (subject, median) in zip(subjects, medians) {
            Report.row([subject.0, Report.number(median, 2)], widths)
        }
        let ratio = medians[0] / medians[1]
        let verdict = ratio <= goal ? "met" : "MISSED"
        Report.row(
            ["\(label), \(rows) rows", Report.number(ratio, 2) + "  ≤ \(Report.number(goal, 1)) \(verdict)"],
            widths)
    }

    /// Runs `command` in the session with fuzzel's protocol log on; the milliseconds from the
    /// start to its first frame, or nil when fuzzel found its lock taken.
    ///
    /// The launcher is then stopped with its process group.
    static func firstFrame(_ sway: HeadlessCompositor, _ command: String, environment: [String: String])
        throws
        -> Double?
    {
        var extra = environment
        extra["WAYLAND_DEBUG"] = "1"
        let start = MonotonicClock.nanoseconds()
        // The log goes to stderr: made the pipe read here, the launcher's own output dropped.
        let child = try sway.spawn("/bin/sh", ["-c", "(\(command)) 2>&1 >/dev/null"], environment: extra)
        defer {
            // cliptab starts the launcher in a process group of its own: every descendant is
            // stopped. fuzzel holds a lock per display until it has ended, so the next run
            // waits for them all to be gone (at most 5 s).
            let family = [child.pid] + descendants(of: child.pid)
            for pid in family.reversed() { kill(pid, SIGTERM) }
            child.waitForExit(timeoutMilliseconds: 5000)
            let deadline = MonotonicClock.milliseconds() + 5000
            while family.contains(where: { kill($0, 0) == 0 && !isZombie($0) })
                && MonotonicClock.milliseconds() < deadline
            {
                usleep(1000)
            }
        }
        var attached: Set<Substring> = []
        var other: [String] = []
        while let line = child.readLine(timeoutMilliseconds: 20_000) {
            if !line.contains("wl_") { other.append(line) }
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
        if other.contains(where: { $0.contains("failed to acquire lock") }) { return nil }
        throw CliptabError(.storageFailure, "no frame from: \(command): \(other.suffix(5))")
    }

    /// The processes below `pid`, from the parent ids in `/proc/*/stat`, parents first.
    static func descendants(of pid: pid_t) -> [pid_t] {
        var parents: [pid_t: pid_t] = [:]
        guard let directory = opendir("/proc") else { return [] }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard let child = pid_t(name), let stat = statFields(child), stat.count > 1 else { continue }
            parents[child] = pid_t(stat[1])
        }
        var found: [pid_t] = []
        var frontier = [pid]
        while let parent = frontier.popLast() {
            for (child, itsParent) in parents where itsParent == parent {
                found.append(child)
                frontier.append(child)
            }
        }
        return found
    }

    /// The fields of `/proc/PID/stat` after the command's name (state, parent id, and on).
    static func statFields(_ pid: pid_t) -> [String]? {
        guard let file = fopen("/proc/\(pid)/stat", "r") else { return nil }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 1024)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { return nil }
        let line = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let close = line.lastIndex(of: ")") else { return nil }
        return line[line.index(after: close)...].split(separator: " ").map(String.init)
    }

    /// Whether `pid` has ended and waits for its parent to reap it.
    static func isZombie(_ pid: pid_t) -> Bool { statFields(pid)?.first == "Z" }
}
