// SPDX-License-Identifier: MIT
import CliptabCore
import Glibc
import Posix
import TestSupport
import WaylandDesktop

/// Issue 21's figures, on one headless sway: the key press to the text visible in a GTK 3
/// entry on Wayland, `cliptab copy --paste` (cliptabd's virtual keyboard, the clipboard put
/// back) against the two-step `wl-copy TEXT`, then Ctrl+V (which leaves the clipboard
/// changed), alternated in the same run; then 200 pastes under load (a busy
/// loop on each core, a clipboard manager reading every selection, another program's text
/// copied before every other paste), counting the texts that did not land exactly once and
/// the clipboards not put back.
///
/// Every program runs as the session's user, cliptabd and its bus included. "Visible" is
/// the entry's `changed` signal, printed by the GTK program on its standard output.
///
/// The two-step's Ctrl+V is pressed on a virtual keyboard that the benchmark holds for the
/// whole run, with the same whole US keymap as cliptabd's: the person's own keyboard. The
/// issue's `wtype -M ctrl -k v -m ctrl` is tried too, but GTK never pastes from it here: each
/// wtype makes a new keyboard with a keymap of only its keys, and GTK takes no Ctrl+V that is
/// the first key of a new keyboard or comes from one whose keymap differs from the other's
/// (measured; see the Wayland reference). The benchmark prints how many of its tries landed.
enum WaylandPasteBenchmark {
    /// Timed pastes of each kind (odd, so the median is one run).
    static let repetitions = 31
    /// Pastes of the run under load.
    static let loadedPastes = 200

    static func run() throws {
        let sway = try HeadlessCompositor(.sway())
        let bus = try sway.startBus()
        let address = ["DBUS_SESSION_BUS_ADDRESS": bus.address]
        let cliptab = try BenchSession.binary("cliptab")
        let daemon = try sway.spawn(
            try BenchSession.binary("cliptabd"), environment: address, stdout: .null, stderr: .null)
        defer { daemon.terminate(graceMilliseconds: 2000) }
        try waitForDaemon(sway, cliptab, address)
        try check(sway.run(cliptab, ["create", "T"], environment: address), "cliptab create")
        for index in 0..<loadedPastes {
            try check(sway.run(cliptab, ["add", "T", "s\(index);"], environment: address), "cliptab add")
        }
        let standIn = try WaylandSelectionService.connect(display: sway.socketPath)
        let keyboard = try standIn.makeVirtualKeyboard(keymap: WaylandKeymap())
        let entry = try gtkEntry(sway)
        defer { entry.terminate(graceMilliseconds: 1000) }
        var field = ""

        /// Runs `command` (then `after`) and returns the time until the entry shows
        /// `field + text`.
        func paste(_ text: String, _ command: [String], after: () throws -> Void = {}) throws -> UInt64 {
            let start = MonotonicClock.nanoseconds()
            let child = try sway.spawn(
                command[0], Array(command.dropFirst()), environment: address, stdout: .null, stderr: .null)
            if command[0] == "sh" { _ = child.waitForExit(timeoutMilliseconds: 10_000) }
            try after()
            let line = entry.readLine(timeoutMilliseconds: 5000)
            let elapsed = MonotonicClock.nanoseconds() - start
            standIn.processEvents(now: MonotonicClock.milliseconds())
            _ = child.waitForExit(timeoutMilliseconds: 10_000)
            guard line == field + text else {
                throw CliptabError(
                    .clipboardUnavailable, "the entry showed \(line ?? "nothing") after \(command)")
            }
            field += text
            return elapsed
        }
        // The issue's two-step as written: its whole command's time (a lower bound of its
        // key to visible), and whether its paste lands at all.
        var wtypeLanded = 0
        var wtypeTimes: [UInt64] = []
        for index in 0..<15 {
            let start = MonotonicClock.nanoseconds()
            let result = try sway.run(
                "sh",
                ["-c", "wl-copy \"$0\" >/dev/null 2>&1 && exec wtype -M ctrl -k v -m ctrl", "t\(index);"])
            wtypeTimes.append(MonotonicClock.nanoseconds() - start)
            try check(result, "wl-copy && wtype")
            if let line = entry.readLine(timeoutMilliseconds: 200) {
                wtypeLanded += 1
                field = line
            }
        }
        var ours: [UInt64] = []
        var theirs: [UInt64] = []
        for index in 0..<repetitions {
            let cliptabPaste = {
                try paste("s\(index);", [cliptab, "copy", "-q", "T", "0:\(index)", "--paste"])
            }
            let twoStep = {
                try paste("w\(index);", ["sh", "-c", "exec wl-copy \"$0\" >/dev/null 2>&1", "w\(index);"]) {
                    try keyboard.type(0x76, modifierKeysyms: [0xffe3])
                }
            }
            if index % 2 == 0 {
                ours.append(try cliptabPaste())
                theirs.append(try twoStep())
            } else {
                theirs.append(try twoStep())
                ours.append(try cliptabPaste())
            }
        }

        // Under load: a busy loop per core, a clipboard manager, other programs' copies.
        let burners = try (0..<2).map { _ in
            try sway.spawn("sh", ["-c", "while :; do :; done"], stdout: .null, stderr: .null)
        }
        let manager = try sway.spawn("wl-paste", ["--watch", "cat"], stdout: .null, stderr: .null)
        defer {
            manager.terminate(graceMilliseconds: 1000)
            for burner in burners { burner.terminate(graceMilliseconds: 500) }
        }
        var wrongTexts = 0
        var wrongClipboards = 0
        var loaded: [UInt64] = []
        var expectedClipboard = "other"
        try sway.copy(Array(expectedClipboard.utf8))
        for index in 0..<loadedPastes {
            if index % 2 == 1 {
                expectedClipboard = "other \(index)"
                try sway.copy(Array(expectedClipboard.utf8))
            }
            let text = "s\(index);"
            let start = MonotonicClock.nanoseconds()
            let child = try sway.spawn(
                cliptab, ["copy", "-q", "T", "0:\(index)", "--paste"], environment: address, stdout: .null,
                stderr: .null)
            let line = entry.readLine(timeoutMilliseconds: 5000)
            loaded.append(MonotonicClock.nanoseconds() - start)
            let ended = child.waitForExit(timeoutMilliseconds: 10_000)
            if line == field + text {
                field += text
            } else {
                wrongTexts += 1
                if let line { field = line }
            }
            // A second change (the text twice) shows at once: nothing more may come.
            if let extra = entry.readLine(timeoutMilliseconds: 0) {
                wrongTexts += 1
                field = extra
            }
            _ = ended
            if try sway.paste().outputText != expectedClipboard { wrongClipboards += 1 }
        }

        let median = CLIBenchmark.median(ours)
        let baseline = CLIBenchmark.median(theirs)
        print(
            "== paste into a GTK entry on Wayland (headless sway; key to text visible, medians; milliseconds)"
        )
        let widths = [52, 10, 12, 8, 8]
        Report.row(["figure", "cliptab", "wl-copy+^V", "ratio", "goal"], widths)
        Report.row(
            [
                "copy --paste vs wl-copy, Ctrl+V (\(repetitions) runs)", Report.number(median, 2),
                Report.number(baseline, 2), Report.number(median / baseline, 2),
                median <= baseline ? "met" : "MISSED",
            ], widths)
        Report.row(
            [
                "\(loadedPastes) under load: median to visible",
                Report.number(CLIBenchmark.median(loaded), 2), "-",
                "-", "-",
            ], widths)
        Report.row(
            [
                "\(loadedPastes) under load: wrong texts", "\(wrongTexts)", "-", "-",
                wrongTexts == 0 ? "met" : "MISSED",
            ], widths)
        Report.row(
            [
                "\(loadedPastes) under load: wrong clipboards", "\(wrongClipboards)", "-", "-",
                wrongClipboards == 0 ? "met" : "MISSED",
            ],
            widths)
        let wtypeMedian = CLIBenchmark.median(wtypeTimes)
        Report.row(
            [
                "copy --paste vs the whole wl-copy && wtype command", Report.number(median, 2),
                Report.number(wtypeMedian, 2), Report.number(median / wtypeMedian, 2),
                median <= wtypeMedian ? "met" : "MISSED",
            ], widths)
        print(
            "wl-copy && wtype -M ctrl -k v -m ctrl: \(wtypeLanded) of \(wtypeTimes.count) landed in the entry"
                + " (GTK takes no Ctrl+V as the first key of a new keyboard with a keymap of its own)")
        print(
            "goals: key to visible <= 1.0x wl-copy && wtype; 0 wrong texts and 0 wrong clipboards in \(loadedPastes) pastes under load"
        )
    }

    /// A GTK 3 entry on Wayland that prints its whole text after every change, once it has
    /// the focus.
    private static func gtkEntry(_ sway: HeadlessCompositor) throws -> ChildProcess {
        let script = HelperPrograms.source("gtk_bench_entry.py")
        let entry = try sway.spawn(
            "/usr/bin/python3", ["-c", script], environment: ["GDK_BACKEND": "wayland"], stdout: .pipe,
            stderr: .null)
        let deadline = MonotonicClock.milliseconds() + 20_000
        while try sway.focusedAppID() != "bench-entry" {
            guard entry.isRunning, MonotonicClock.milliseconds() < deadline else {
                throw CliptabError(.clipboardUnavailable, "the GTK entry did not get the focus")
            }
            usleep(10_000)
        }
        return entry
    }

    private static func check(_ result: CommandResult, _ what: String) throws {
        guard result.termination == .exited(0) else {
            throw CliptabError(.storageFailure, "\(what) failed: \(result.errorText)")
        }
    }

    /// Waits until `cliptab tables` answers on the session's bus.
    private static func waitForDaemon(
        _ sway: HeadlessCompositor, _ cliptab: String, _ address: [String: String]
    )
        throws
    {
        let deadline = MonotonicClock.milliseconds() + 20_000
        while try sway.run(cliptab, ["tables"], environment: address).termination != .exited(0) {
            guard MonotonicClock.milliseconds() < deadline else {
                throw CliptabError(.storageFailure, "cliptabd did not answer on the session's bus")
            }
            usleep(20_000)
        }
    }
}
