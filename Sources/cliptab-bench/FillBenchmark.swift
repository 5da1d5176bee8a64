// SPDX-License-Identifier: MIT
import CliptabClient
import CliptabCore
import DBus
import Glibc
import Posix
import TestSupport
import WaylandDesktop

/// Issue 42's figures: `cliptab fill` of five rows into a GTK 3 form of five entries.
///
/// From the command's start to the last entry right, against five rounds of the classic
/// sequence, interleaved: `xclip -i` then `xdotool key ctrl+v Tab` on a private Xvfb, and on
/// a headless sway `wl-copy` then `wtype` (as the issue writes it) and `wl-copy` then Ctrl+V
/// and Tab on a virtual keyboard the benchmark holds (the person's keyboard: GTK takes no
/// key from wtype's keyboards, see `WaylandPasteBenchmark`). Then runs under load (a busy
/// loop per core), counting the fields that did not end up with their row, for both.
///
/// `CLIPTAB_FILL_ONLY` (`x11` or `sway`) runs one desktop; `CLIPTAB_FILL_RUNS` sets the
/// runs of each under load (default 100);
/// `CLIPTAB_FILL_SETTLE_MS` sets `[paste_to_focus] settle_ms` of the X11 daemon (default:
/// the shipped 50 ms), the quiet time after the last row's fetch before the restore (rows
/// before it wait `ClipboardPolicy.fillRowQuietMilliseconds`, at most `settle_ms`).
enum FillBenchmark {
    /// Timed fills of each kind (odd, so the median is one run).
    static let repetitions = 21
    /// The five rows.
    static let rows = ["Ada Lovelace", "12 St James's Square", "London", "SW1Y 4JH", "ada@example.org"]

    static func run() throws {
        let runs = Int(String(cString: getenv("CLIPTAB_FILL_RUNS") ?? strdup("100"))) ?? 100
        let only = getenv("CLIPTAB_FILL_ONLY").map { String(cString: $0) }
        if only != "sway" { try x11(runs: runs) }
        if only != "x11" { try sway(runs: runs) }
        print(
            "goals: a fill <= 0.5x five rounds of the classic sequence; 0 wrong fields in \(runs) runs under load"
        )
    }

    // MARK: - X11

    private static func x11(runs: Int) throws {
        let settle = getenv("CLIPTAB_FILL_SETTLE_MS").map { String(cString: $0) }
        let session = try BenchSession(
            name: "fill", withDisplay: true, config: settle.map { "[paste_to_focus]\nsettle_ms = \($0)\n" })
        if let settle { print("(X11 daemon with settle_ms = \(settle))") }
        let cliptab = try BenchSession.binary("cliptab")
        let xclip = try CLIBenchmark.which("xclip")
        let xdotool = try CLIBenchmark.which("xdotool")
        let client = try BusConnection.connect(address: session.address)
        try session.cliptab(client).createTable("T")
        _ = try session.cliptab(client).insertRows(TableCell("T", section: 0, row: 0), rows)
        let environment = session.environment
        let form = try FormWindow(
            spawn: {
                try ChildProcess.spawn(
                    "/usr/bin/python3", $0, environment: environment, stdin: .pipe, stdout: .pipe,
                    stderr: .null)
            },
            x11: true)
        defer { form.stop() }
        try VirtualDisplay.focus(form.window, environment: environment)
        let spawn = { (command: [String]) throws -> ChildProcess in
            try ChildProcess.spawn(
                command[0], Array(command.dropFirst()), environment: environment, stdout: .null, stderr: .null
            )
        }
        let ours = [cliptab, "--timeout", "30", "fill", "T", "0:0"]
        let classic =
            [
                "/bin/sh", "-c",
                "for r; do printf %s \"$r\" | \(xclip) -selection clipboard -i && \(xdotool) key ctrl+v Tab; done",
                "sh",
            ]
            + rows
        let clipboard = {
            try ChildProcess.run(xclip, ["-selection", "clipboard", "-o"], environment: environment)
                .outputText
        }
        try measure(
            "private Xvfb (XTEST), GTK 3 form", runs: runs, form: form,
            kinds: [
                ("cliptab fill T 0:0", { try form.fill { try spawn(ours) } }),
                ("5 x (xclip -i; xdotool key ctrl+v Tab)", { try form.fill { try spawn(classic) } }),
            ],
            before: { index in
                let previous = "previous \(index)"
                try ClipboardBenchmark.write(previous, to: session.root + "/previous.txt")
                try ClipboardBenchmark.startXclipOwner(xclip, session.root + "/previous.txt", environment)
                return previous
            },
            clipboard: clipboard,
            hogs: {
                try ChildProcess.spawn(
                    "timeout", ["600", "sh", "-c", "while :; do :; done"], stdout: .null, stderr: .null)
            })
    }

    // MARK: - sway

    private static func sway(runs: Int) throws {
        let sway = try HeadlessCompositor(.sway())
        let bus = try sway.startBus()
        let address = ["DBUS_SESSION_BUS_ADDRESS": bus.address]
        let cliptab = try BenchSession.binary("cliptab")
        let daemon = try sway.spawn(
            try BenchSession.binary("cliptabd"), environment: address, stdout: .null, stderr: .null)
        defer { daemon.terminate(graceMilliseconds: 2000) }
        let deadline = MonotonicClock.milliseconds() + 20_000
        while try sway.run(cliptab, ["tables"], environment: address).termination != .exited(0) {
            guard MonotonicClock.milliseconds() < deadline else {
                throw CliptabError(.storageFailure, "cliptabd did not answer on the session's bus")
            }
            usleep(20_000)
        }
        _ = try sway.run(cliptab, ["create", "T"], environment: address)
        for row in rows { _ = try sway.run(cliptab, ["add", "T", row], environment: address) }
        let standIn = try WaylandSelectionService.connect(display: sway.socketPath)
        let keyboard = try standIn.makeVirtualKeyboard(keymap: WaylandKeymap())
        let form = try FormWindow(
            spawn: {
                try sway.spawn(
                    "/usr/bin/python3", $0, environment: ["GDK_BACKEND": "wayland"], stdin: .pipe,
                    stdout: .pipe,
                    stderr: .null)
            }, x11: false)
        defer { form.stop() }
        let focused = MonotonicClock.milliseconds() + 20_000
        while try sway.focusedAppID() != "fill-bench" {
            guard MonotonicClock.milliseconds() < focused else {
                throw CliptabError(.clipboardUnavailable, "the GTK form did not get the focus")
            }
            usleep(10_000)
        }
        let spawn = { (command: [String]) throws -> ChildProcess in
            try sway.spawn(
                command[0], Array(command.dropFirst()), environment: address, stdout: .null, stderr: .null)
        }
        // Its refusals are kept, to say why a field stayed wrong.
        let refusals = sway.homeDirectory + "/fill-refusals.txt"
        let ours = ["sh", "-c", "exec \"$0\" --timeout 30 fill T 0:0 2>>\(refusals)", cliptab]
        let wtype =
            [
                "sh", "-c",
                "for r; do wl-copy \"$r\" >/dev/null 2>&1; wtype -M ctrl -k v -m ctrl -k Tab; done", "sh",
            ] + rows
        // The person's keyboard: wl-copy, then Ctrl+V and Tab, five times.
        let byHand = {
            try form.fill {
                for row in rows {
                    let copy = try spawn(["sh", "-c", "exec wl-copy \"$0\" >/dev/null 2>&1", row])
                    _ = copy.waitForExit(timeoutMilliseconds: 10_000)
                    try keyboard.type(0x76, modifierKeysyms: [0xffe3])
                    try keyboard.type(0xff09, modifierKeysyms: [])
                    standIn.processEvents(now: MonotonicClock.milliseconds())
                }
                return try spawn(["true"])
            }
        }
        try measure(
            "headless sway (virtual keyboard), GTK 3 form on Wayland", runs: runs, form: form,
            kinds: [
                ("cliptab fill T 0:0", { try form.fill { try spawn(ours) } }),
                ("5 x (wl-copy; Ctrl+V, Tab on a keyboard)", byHand),
                ("5 x (wl-copy; wtype ctrl+v Tab)", { try form.fill { try spawn(wtype) } }),
            ].map { kind in
                // The stand-in's connection hears every new selection: read, or sway drops it.
                (
                    kind.0,
                    {
                        standIn.processEvents(now: MonotonicClock.milliseconds()); return try kind.1()
                    }
                )
            },
            before: { index in
                let previous = "previous \(index)"
                try sway.copy(Array(previous.utf8))
                return previous
            },
            clipboard: { try sway.paste().outputText },
            hogs: {
                try sway.spawn(
                    "timeout", ["600", "sh", "-c", "while :; do :; done"], stdout: .null, stderr: .null)
            })
        let reasons = try ChildProcess.run("cat", [refusals]).outputText
        print("cliptab fill's refusals on sway: " + (reasons.isEmpty ? "none" : "\n" + reasons))
    }

    // MARK: - Measuring

    /// Times each of `kinds` `repetitions` times, interleaved, then runs each `runs` times
    /// under load (one busy loop from `hogs` per core), `before` putting another program's
    /// text on the clipboard first; prints the medians, the ratios to the first kind, and the
    /// wrong fields (and, for the first kind, the clipboards not put back).
    private static func measure(
        _ title: String, runs: Int, form: FormWindow,
        kinds: [(name: String, fill: () throws -> FormWindow.Outcome)],
        before: (Int) throws -> String, clipboard: () throws -> String, hogs: () throws -> ChildProcess
    ) throws {
        var times = Array(repeating: [UInt64](), count: kinds.count)
        var quietWrong = Array(repeating: 0, count: kinds.count)
        for index in 0..<repetitions {
            for offset in 0..<kinds.count {
                let kind = (index + offset) % kinds.count
                let outcome = try kinds[kind].fill()
                quietWrong[kind] += outcome.wrongFields
                if let elapsed = outcome.elapsed { times[kind].append(elapsed) }
            }
        }
        let cores = max(Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), 1)
        let burners = try (0..<cores).map { _ in try hogs() }
        var loadedWrong = Array(repeating: 0, count: kinds.count)
        var loadedTimes: [UInt64] = []
        var wrongClipboards = 0
        var ourWrongEntries: [String] = []
        do {
            defer { for burner in burners { burner.terminate(graceMilliseconds: 500) } }
            for index in 0..<runs {
                for offset in 0..<kinds.count {
                    let kind = (index + offset) % kinds.count
                    let previous = try before(index * kinds.count + offset)
                    let outcome = try kinds[kind].fill()
                    loadedWrong[kind] += outcome.wrongFields
                    if kind == 0 {
                        ourWrongEntries += outcome.wrongEntries.map { "run \(index + 1), \($0)" }
                        if let elapsed = outcome.elapsed { loadedTimes.append(elapsed) }
                        if try clipboard() != previous { wrongClipboards += 1 }
                    }
                }
            }
        }
        print("== fill of 5 rows into 5 entries: \(title); from the command's start to the last entry right")
        let widths = [44, 10, 12, 8, 8, 22]
        Report.row(["sequence", "median ms", "right runs", "ratio", "goal", "wrong fields, no load"], widths)
        let ours = times[0].isEmpty ? Double.nan : CLIBenchmark.median(times[0])
        for (kind, entry) in kinds.enumerated() {
            let median = times[kind].isEmpty ? Double.nan : CLIBenchmark.median(times[kind])
            Report.row(
                [
                    entry.name, Report.number(median, 1), "\(times[kind].count)/\(repetitions)",
                    kind == 0 ? "-" : Report.number(ours / median, 2),
                    kind == 0 ? "-" : (ours / median <= 0.5 ? "met" : "MISSED"), "\(quietWrong[kind])",
                ], widths)
        }
        print("-- under load (\(burners.count) busy loops, \(runs) runs each, interleaved)")
        let loadWidths = [44, 14, 10]
        Report.row(["sequence", "wrong fields", "goal"], loadWidths)
        for (kind, entry) in kinds.enumerated() {
            Report.row(
                [
                    entry.name, "\(loadedWrong[kind]) of \(runs * rows.count)",
                    kind == 0 ? (loadedWrong[0] == 0 ? "met" : "MISSED") : "-",
                ],
                loadWidths)
        }
        let loadedMedian = loadedTimes.isEmpty ? Double.nan : CLIBenchmark.median(loadedTimes)
        print(
            "cliptab fill under load: median \(Report.number(loadedMedian, 1)) ms; clipboards not put back: \(wrongClipboards) of \(runs)"
        )
        // Each wrong field of cliptab's: a neighbour's row, "previous N" (the clipboard put
        // back), empty (never pasted) or a row twice tell different causes.
        for entry in ourWrongEntries { print("cliptab fill wrong: " + entry) }
    }
}

/// A GTK 3 window of five entries that prints its entries (joined by U+001F) after every
/// change, and empties them and focuses the first at each line on its standard input.
final class FormWindow {
    /// One fill as the form saw it.
    struct Outcome {
        /// From the command's start to the form right, or nil when it never was.
        var elapsed: UInt64?
        /// The entries not holding their row at the end.
        var wrongFields: Int
        /// What each of those held: `field 3: "London"` (a neighbour's row, the clipboard
        /// put back, nothing…), to tell the causes apart.
        var wrongEntries: [String] = []
    }

    private let process: ChildProcess
    /// The X window id (`0x…`) on X11; empty on Wayland.
    let window: String

    /// Starts the form through `spawn` (given the Python arguments).
    init(spawn: ([String]) throws -> ChildProcess, x11: Bool) throws {
        process = try spawn(["-c", HelperPrograms.source("gtk_bench_form.py"), x11 ? "xid" : "ready"])
        guard let line = process.readLine(timeoutMilliseconds: 20_000), !line.isEmpty else {
            throw CliptabError(
                .clipboardUnavailable, "the GTK form did not start (python3-gi, gir1.2-gtk-3.0)")
        }
        window = x11 ? line : ""
    }

    /// Stops the form.
    func stop() { _ = process.terminate(graceMilliseconds: 500) }

    /// Empties the form, runs `start` (a command, or keys and a command) and watches the
    /// entries: the time until they hold the rows, and, once the command ended and the form
    /// was quiet for 100 ms (at most 1 s after), the entries without their row.
    func fill(_ start: () throws -> ChildProcess) throws -> Outcome {
        try process.write(Array("reset\n".utf8))
        while let line = process.readLine(timeoutMilliseconds: 10_000), line != "reset" {}
        let expected = FillBenchmark.rows
        var entries = Array(repeating: "", count: expected.count)
        var elapsed: UInt64?
        let begin = MonotonicClock.nanoseconds()
        let child = try start()
        func take(_ line: String) {
            entries = line.split(separator: "\u{1f}", omittingEmptySubsequences: false).map(String.init)
            if elapsed == nil && entries == expected { elapsed = MonotonicClock.nanoseconds() - begin }
        }
        // Until right; or the command ended and the form was quiet for a second; or 30 s.
        var quietSince = MonotonicClock.milliseconds()
        while elapsed == nil, MonotonicClock.milliseconds() < quietSince + 30_000 {
            if let line = process.readLine(timeoutMilliseconds: 100) {
                take(line)
                quietSince = MonotonicClock.milliseconds()
            } else if !child.isRunning, MonotonicClock.milliseconds() > quietSince + 1000 {
                break
            }
        }
        _ = child.waitForExit(timeoutMilliseconds: 30_000)
        // A change after the form was right (a row typed twice) shows within 100 ms.
        while let line = process.readLine(timeoutMilliseconds: 100) { take(line) }
        let wrong = zip(entries, expected).filter { $0 != $1 }.count + max(0, expected.count - entries.count)
        let held = expected.indices.compactMap { index -> String? in
            let entry = index < entries.count ? entries[index] : ""
            return entry == expected[index] ? nil : "field \(index + 1): \"\(entry)\""
        }
        return Outcome(elapsed: elapsed, wrongFields: wrong, wrongEntries: held)
    }
}
