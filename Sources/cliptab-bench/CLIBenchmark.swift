// SPDX-License-Identifier: MIT
import CliptabContract
import CliptabCore
import Glibc
import Posix

/// The CLI's cost: whole-process wall time of `cliptab get T 0:0` against `dbus-send
/// --print-reply` of the same `GetCell` call, interleaved in one run, and the peak RSS of
/// `cliptab get`; and `cliptab get T sig`, a row by its name, which costs one call more
/// (`FindRow`), as a plain `copy` costs one more (`GetSecret`) than `copy --quiet`.
///
/// It runs the `cliptab` and `cliptabd` built beside this benchmark on a private bus with a
/// temporary store, so build them all first, in release mode (which links cliptab's Swift
/// runtime statically): `swift build -c release && .build/release/cliptab-bench cli`.
enum CLIBenchmark {
    /// Runs of each command; odd, so that the median is one run.
    static let repetitions = 41
    /// The goal for the ratio of the medians: both go through the session bus, cliptabd's one
    /// way in, and cliptab is no slower than dbus-send there.
    static let ratioGoal = 1.0
    /// The goal for cliptab's peak RSS, in KiB (8 MiB).
    static let memoryGoalKiB = 8 * 1024

    static func run() throws {
        let cliptab = try BenchSession.binary("cliptab")
        let session = try BenchSession(name: "cli")
        let environment = session.environment
        _ = try ChildProcess.run(cliptab, ["create", "T"], environment: environment)
        _ = try ChildProcess.run(cliptab, ["add", "T", "hello, world"], environment: environment)
        _ = try ChildProcess.run(cliptab, ["name", "T", "0:0", "sig"], environment: environment)
        let byName = [cliptab, "get", "T", "sig"]

        let client = [cliptab, "get", "T", "0:0"]
        let reference = [
            "dbus-send", "--session", "--print-reply", "--dest=" + CliptabBus.name,
            CliptabBus.path, CliptabBus.interface + ".GetCell", "string:T", "int32:0",
            "int32:0",
        ]
        // Both must do the real work before they are timed.
        let check = try ChildProcess.run(client[0], Array(client.dropFirst()), environment: environment)
        let checkReference = try ChildProcess.run(
            "dbus-send", Array(reference.dropFirst()), environment: environment)
        guard check.outputText == "hello, world",
            checkReference.outputText.contains("string \"hello, world\"")
        else {
            throw CliptabError(
                .storageFailure, "unexpected output: \(check.outputText) / \(checkReference.outputText)")
        }
        let linkage = try ChildProcess.run("ldd", [cliptab])
        let isStatic = !linkage.outputText.contains("libswiftCore")
        // A release build is one static executable (ldd: "not a dynamic executable").
        let linking =
            linkage.termination != .exited(0)
            ? "one static executable"
            : isStatic
                ? "Swift runtime linked statically"
                : "Swift runtime linked DYNAMICALLY: build with -c release"
        // SwiftPM's default `$ORIGIN` run path has the loader look beside the binary first.
        let runPath: String
        if let section = try? ChildProcess.run("readelf", ["-d", cliptab]), section.termination == .exited(0)
        {
            let hasOne = section.outputText.contains("(RUNPATH)") || section.outputText.contains("(RPATH)")
            runPath = hasOne ? "WITH a run path: build with --disable-local-rpath" : "no run path"
        } else {
            runPath = "run path not checked: no readelf"
        }

        var clientTimes: [UInt64] = []
        var referenceTimes: [UInt64] = []
        var byNameTimes: [UInt64] = []
        let resolvedReference = [try which("dbus-send")] + reference.dropFirst()
        for _ in 0..<3 {  // warm-up: page cache, the daemon's first calls
            _ = try timedRun(client, environment: environment)
            _ = try timedRun(resolvedReference, environment: environment)
        }
        for index in 0..<repetitions {
            // Interleaved, and alternating which goes first, so that load on the machine
            // falls on both alike.
            if index % 2 == 0 {
                clientTimes.append(try timedRun(client, environment: environment))
                referenceTimes.append(try timedRun(resolvedReference, environment: environment))
                byNameTimes.append(try timedRun(byName, environment: environment))
            } else {
                byNameTimes.append(try timedRun(byName, environment: environment))
                referenceTimes.append(try timedRun(resolvedReference, environment: environment))
                clientTimes.append(try timedRun(client, environment: environment))
            }
        }
        // Peak RSS through GNU time: wait4's ru_maxrss of a posix_spawn child would include
        // this benchmark's own memory (the child starts as a vfork of it).
        var clientMemory: [Int] = []
        var referenceMemory: [Int] = []
        if access(timeCommand, X_OK) == 0 {
            for _ in 0..<repetitions {
                clientMemory.append(try peakKiB(client, environment: environment))
                referenceMemory.append(try peakKiB(resolvedReference, environment: environment))
            }
        }
        let clientMedian = median(clientTimes)
        let referenceMedian = median(referenceTimes)
        let ratio = clientMedian / referenceMedian
        let peak = clientMemory.max() ?? 0
        func memory(_ samples: [Int]) -> [String] {
            samples.isEmpty
                ? ["-", "-"] : ["\(samples.max() ?? 0)", "\(samples.sorted()[samples.count / 2])"]
        }
        print(
            "== cli (whole-process wall time: medians of \(repetitions) interleaved runs; peak RSS: GNU time)"
        )
        print(
            "cliptab: \(cliptab) (\(linking), "
                + runPath + "); both call through the session bus"
        )
        let widths = [44, 10, 13, 10]
        Report.row(["command", "median ms", "peak RSS KiB", "median KiB"], widths)
        Report.row(["cliptab get T 0:0", Report.number(clientMedian, 2)] + memory(clientMemory), widths)
        Report.row(
            ["dbus-send --print-reply ... GetCell T 0 0", Report.number(referenceMedian, 2)]
                + memory(referenceMemory), widths)
        print(
            "ratio cliptab/dbus-send: \(Report.number(ratio, 2)) (goal <= \(ratioGoal): \(ratio <= ratioGoal ? "met" : "MISSED"))"
        )
        let byNameMedian = median(byNameTimes)
        print(
            "cliptab get T sig (one call more: FindRow): \(Report.number(byNameMedian, 2)) ms, "
                + "\(Report.number(byNameMedian / clientMedian, 2)) x cliptab get T 0:0"
        )
        if clientMemory.isEmpty {
            print(
                "peak RSS of cliptab get: not measured (\(timeCommand) is not installed: apt-get install time)"
            )
        } else {
            print(
                "peak RSS of cliptab get: \(Report.number(Double(peak) / 1024, 2)) MiB (goal <= 8 MiB: \(peak <= memoryGoalKiB ? "met" : "MISSED"))"
            )
        }
    }

    /// GNU time, which reports a child's peak RSS (`%M`).
    static let timeCommand = "/usr/bin/time"

    /// The peak resident set size of one run of `command`, in KiB, as GNU time reports it.
    static func peakKiB(_ command: [String], environment: [String: String]) throws -> Int {
        let result = try ChildProcess.run(timeCommand, ["-f", "%M"] + command, environment: environment)
        let lines = result.errorText.split(separator: "\n")
        guard result.termination == .exited(0), let last = lines.last, let kib = Int(last) else {
            throw CliptabError(.storageFailure, "\(timeCommand) failed: \(result.errorText)")
        }
        return kib
    }

    /// Runs `command` with its output thrown away; returns the wall time from spawn to exit
    /// in nanoseconds.
    static func timedRun(_ command: [String], environment: [String: String]) throws -> UInt64 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = command.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in envp { free(pointer) } }
        var pid: pid_t = 0
        let start = MonotonicClock.nanoseconds()
        let spawned = posix_spawn(&pid, command[0], &actions, nil, argv, envp)
        guard spawned == 0 else { throw SystemCallError("posix_spawn \(command[0])", code: spawned) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw SystemCallError.current("waitpid") }
        }
        let elapsed = MonotonicClock.nanoseconds() - start
        guard status == 0 else {
            throw CliptabError(
                .storageFailure, "\(command.joined(separator: " ")) ended with wait status \(status)")
        }
        return elapsed
    }

    /// The median of `samples` in milliseconds.
    static func median(_ samples: [UInt64]) -> Double {
        Double(samples.sorted()[samples.count / 2]) / 1e6
    }

    /// The full path of `name` on `PATH` (posix_spawn does not search it).
    static func which(_ name: String) throws -> String {
        for directory in String(cString: getenv("PATH")).split(separator: ":") {
            let path = "\(directory)/\(name)"
            if access(path, X_OK) == 0 { return path }
        }
        throw CliptabError(.invalidArgument, "\(name) is not on PATH")
    }
}
