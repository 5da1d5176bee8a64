// SPDX-License-Identifier: MIT
import DBus
import Glibc
import Posix
import TestSupport
import Testing

/// `cliptab pick` through a recording launcher script and through the real dmenu and rofi,
/// each checked on what it was given and on what came back.
@Suite(.serialized)
struct PickTests {
    /// The sample table plus a second two-line row whose first line is the same.
    func fixtureWithTwins() throws -> MenuFixture {
        let fixture = try MenuFixture()
        try fixture.makeSampleTable()
        try fixture.cliptab("add", "t", "--section", "1", "multi\nother")
        return fixture
    }

    /// Writes an executable shell script.
    func script(_ path: String, _ body: String) throws {
        guard let file = fopen(path, "w") else { throw FixtureError("cannot write \(path)") }
        fputs("#!/bin/sh\n" + body + "\n", file)
        fclose(file)
        chmod(path, 0o755)
    }

    /// A launcher command that records the lines it is given in a file and prints the one at
    /// `sed` address `address` (`1`, `$`); and the file.
    func recordingLauncher(_ fixture: MenuFixture, printing address: String) throws -> (
        command: String, given: String
    ) {
        let launcher = fixture.data.appending("launcher")
        let given = fixture.data.appending("given")
        try script(launcher, "cat > \"$1\"\nsed -n '\(address)p' \"$1\"")
        return ("\(launcher) \(given)", given)
    }

    /// Reads a whole file.
    func contents(_ path: String) -> String {
        guard let file = fopen(path, "r") else { return "" }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&chunk, 1, chunk.count, file)
            if count <= 0 { break }
            bytes += chunk[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A table of more sections than one batch of calls asks for (`sectionsPerBatch`): every
    /// row is offered once, in order, and the last one chosen is the last one printed.
    @Test func manySectionsAreFetchedInBatches() throws {
        let fixture = try MenuFixture()
        // 32 a batch in PickCommand: two batches and a part.
        let count = 70
        let tsv =
            "section\theader\tfooter\trow\ttext\n"
            + (0..<count).map { "\($0)\ts\($0)\t\t0\trow \($0)\n" }.joined()
        let imported = try fixture.cliptab("import", "many", "--format", "tsv", input: tsv)
        #expect(imported.exitCode == 0, "\(imported.errorText)")
        let launcher = try recordingLauncher(fixture, printing: "$")
        let result = try fixture.cliptab("pick", "many", "--launcher", launcher.command, "--action", "print")
        #expect(result.exitCode == 0 && result.outputText == "row \(count - 1)", "\(result.errorText)")
        #expect(
            contents(launcher.given) == (0..<count).map { "\($0 + 1)\ts\($0) › row \($0)\n" }.joined())
    }

    /// A row with Windows line ends is one line too ("\r\n" is one Character, which a split
    /// by Characters does not take for a line end), a tab becomes a space and a control
    /// character is spelled out; the row chosen is printed as stored.
    @Test func crlfTabsAndControlsStayOnTheirLine() throws {
        let fixture = try MenuFixture()
        try fixture.cliptab("create", "c")
        try fixture.cliptab("add", "c", "dos\r\nline")
        try fixture.cliptab("add", "c", "tab\there\u{1b}[31m")
        let launcher = try recordingLauncher(fixture, printing: "1")
        let result = try fixture.cliptab("pick", "c", "--launcher", launcher.command, "--action", "print")
        #expect(result.exitCode == 0 && result.outputText == "dos\r\nline", "\(result.errorText)")
        #expect(contents(launcher.given) == "1\tdos ⏎\n2\ttab here\\x1b[31m\n")
    }

    /// The lines a command launcher gets: a number, a tab, `Header › text`, two-line texts
    /// marked; the two rows that look the same are told apart by the number, not the text.
    @Test func aCommandGetsNumberedLinesAndTheChoiceMapsBackToTheRow() throws {
        let fixture = try fixtureWithTwins()
        let launcher = fixture.data.appending("launcher")
        let recorded = fixture.data.appending("given")
        // Records its input, then prints the line numbered by its argument.
        try script(launcher, "cat > \"$1\"\nsed -n \"$2p\" \"$1\"")
        let pick = { (line: Int) in
            try fixture.cliptab(
                "pick", "t", "--launcher", "\(launcher) \(recorded) \(line)", "--action", "print")
        }
        var result = try pick(6)
        #expect(result.exitCode == 0 && result.outputText == "multi\nother", "\(result.errorText)")
        #expect(
            contents(recorded)
                == "1\talpha\n2\tbeta two\n3\tShell › ls -la\n4\tShell › git status\n5\tShell › multi ⏎\n"
                + "6\tShell › multi ⏎\n")
        result = try pick(5)
        #expect(result.outputText == "multi\nline\n")
        // Nothing printed, or a line that was never offered: nothing chosen, nothing done.
        result = try pick(40)
        #expect(
            result.exitCode == 1 && result.outputText == "" && result.errorText == "cliptab: nothing chosen\n"
        )
        try script(launcher, "cat > /dev/null; printf '9\\tShell › git status\\n'")
        result = try fixture.cliptab("pick", "t", "--launcher", launcher, "--action", "print")
        #expect(result.exitCode == 1 && result.outputText == "")
        try script(launcher, "cat > /dev/null; exit 1")
        #expect(try fixture.cliptab("pick", "t", "--launcher", launcher).exitCode == 1)
    }

    /// A launcher that crashes (a stand-in for fuzzel 1.8.2, which segfaults at start on
    /// sway after another program's tiny keymap) is reported with its signal, exit 1, not as
    /// "nothing chosen"; one killed by a signal to end it says so; a crash while the tables
    /// are offered is reported the same way.
    @Test func crashedLauncherIsReportedWithItsSignal() throws {
        let fixture = try fixtureWithTwins()
        let launcher = fixture.data.appending("crashing")
        for (signal, report) in [
            ("SEGV", "crashed (SIGSEGV)"), ("ABRT", "crashed (SIGABRT)"), ("TERM", "was killed by SIGTERM"),
        ] {
            try script(launcher, "cat > /dev/null; kill -\(signal) $$")
            let result = try fixture.cliptab("pick", "t", "--launcher", launcher, "--action", "print")
            #expect(result.exitCode == 1 && result.outputText == "", "\(signal): \(result.errorText)")
            #expect(
                result.errorText
                    == "cliptab: the launcher \(launcher) \(report) before anything was chosen\n",
                "\(signal): \(result.errorText)")
        }
        // The table asked first: the same report.
        try script(launcher, "kill -SEGV $$")
        let tables = try fixture.cliptab("pick", "--launcher", launcher, "--action", "print")
        #expect(
            tables.exitCode == 1
                && tables.errorText
                    == "cliptab: the launcher \(launcher) crashed (SIGSEGV) before anything was chosen\n",
            "\(tables.errorText)")
    }

    /// rofi's and wofi's answers are indexes: rofi's -1 (text typed, not chosen) is no
    /// choice; wofi's line number maps to its row.
    @Test func indexAnswersOfRofiAndWofi() throws {
        let fixture = try fixtureWithTwins()
        let directory = fixture.data.appending("fake")
        _ = try ChildProcess.run("mkdir", ["-p", directory])
        try script(directory + "/rofi", "cat > /dev/null; echo -1")
        try script(directory + "/wofi", "cat > \(fixture.data.appending("wofi.in")); echo 5")
        var environment = fixture.environment
        environment["PATH"] = directory + ":" + (environment["PATH"] ?? "")
        let pick = { (launcher: String) in
            try ChildProcess.run(
                BuiltProducts.path(of: "cliptab"),
                ["pick", "t", "--launcher", launcher, "--action", "print"],
                environment: environment)
        }
        let rofi = try pick("rofi")
        #expect(rofi.exitCode == 1 && rofi.outputText == "" && rofi.errorText == "cliptab: nothing chosen\n")
        let wofi = try pick("wofi")
        #expect(wofi.exitCode == 0 && wofi.outputText == "multi\nother", "\(wofi.errorText)")
        #expect(contents(fixture.data.appending("wofi.in")).hasPrefix("alpha\nbeta two\nShell › ls -la\n"))
    }

    /// fuzzel is run with `--dmenu --index` and given the bare lines; its index maps to the
    /// row, and anything but an index offered (custom text) is no choice.
    @Test func fuzzelAnswersWithAnIndex() throws {
        let fixture = try fixtureWithTwins()
        let directory = fixture.data.appending("fake")
        _ = try ChildProcess.run("mkdir", ["-p", directory])
        let input = fixture.data.appending("fuzzel.in")
        let arguments = fixture.data.appending("fuzzel.args")
        try script(
            directory + "/fuzzel", "printf '%s\\n' \"$@\" > \(arguments); cat > \(input); echo \"$ANSWER\"")
        var environment = fixture.environment
        environment["PATH"] = directory + ":" + (environment["PATH"] ?? "")
        let pick = { (answer: String) in
            environment["ANSWER"] = answer
            return try ChildProcess.run(
                BuiltProducts.path(of: "cliptab"),
                ["pick", "t", "--launcher", "fuzzel", "--action", "print"],
                environment: environment)
        }
        let chosen = try pick("5")
        #expect(chosen.exitCode == 0 && chosen.outputText == "multi\nother", "\(chosen.errorText)")
        #expect(
            contents(input)
                == "alpha\nbeta two\nShell › ls -la\nShell › git status\nShell › multi ⏎\nShell › multi ⏎\n")
        #expect(contents(arguments) == "--dmenu\n--index\n-p\nt> \n")
        for answer in ["6", "-1", "beta two", "+2", ""] {
            let result = try pick(answer)
            #expect(result.exitCode == 1 && result.outputText == "", "answer \(answer)")
        }
    }

    /// `--launcher auto` (the default) takes the first installed launcher of the session:
    /// Wayland fuzzel, wofi, rofi 2 (not rofi 1.7); X11 rofi, dmenu; no display fzf.
    @Test func autoChoosesByTheSession() throws {
        let fixture = try fixtureWithTwins()
        let directory = fixture.data.appending("only")
        _ = try ChildProcess.run("mkdir", ["-p", directory])
        let log = fixture.data.appending("chosen")
        // Each fake launcher records its name and answers the first line (index 0, or "1\t…").
        func install(_ name: String, answer: String, version: String = "") throws {
            try script(
                "\(directory)/\(name)",
                "[ \"$1\" = -version ] && { echo 'Version: \(version)'; exit 0; }\n"
                    + "echo \(name) >> \(log); /bin/cat > /dev/null; echo '\(answer)'")
        }
        func remove(_ name: String) { unlink("\(directory)/\(name)") }
        func chosen(_ session: [String: String], _ extra: [String] = []) throws -> String {
            unlink(log)
            var environment = fixture.environment
            environment["PATH"] = directory
            environment["DISPLAY"] = nil
            environment.merge(session) { $1 }
            let result = try ChildProcess.run(
                BuiltProducts.path(of: "cliptab"), ["pick", "t", "--action", "print"] + extra,
                environment: environment)
            #expect(result.exitCode == 0 && result.outputText == "alpha", "\(result.errorText)")
            return contents(log)
        }
        for name in ["fuzzel", "wofi"] { try install(name, answer: "0") }
        try install("rofi", answer: "0", version: "1.7.3")
        try install("dmenu", answer: "1  alpha")
        try install("fzf", answer: "1\talpha")
        let wayland = ["WAYLAND_DISPLAY": "wayland-1", "DISPLAY": fixture.environment["DISPLAY"] ?? ":0"]
        let x11 = ["DISPLAY": fixture.environment["DISPLAY"] ?? ":0"]
        #expect(try chosen(wayland) == "fuzzel\n")
        #expect(try chosen(wayland, ["--launcher", "auto"]) == "fuzzel\n")
        #expect(try chosen(x11) == "rofi\n")
        #expect(try chosen([:]) == "fzf\n")
        remove("fuzzel")
        #expect(try chosen(wayland) == "wofi\n")
        remove("rofi")
        #expect(try chosen(x11) == "dmenu\n")
        // rofi 1.7 draws on X11 only: not a Wayland launcher; rofi 2 is.
        remove("wofi")
        try install("rofi", answer: "0", version: "1.7.3")
        var environment = fixture.environment
        environment["PATH"] = directory
        environment.merge(wayland) { $1 }
        let none = try ChildProcess.run(
            BuiltProducts.path(of: "cliptab"), ["pick", "t"], environment: environment)
        #expect(
            none.exitCode != 0 && none.errorText.contains("install fuzzel or wofi or rofi"),
            "\(none.errorText)")
        try install("rofi", answer: "0", version: "2.0.0")
        #expect(try chosen(wayland) == "rofi\n")
    }

    /// With no table the launcher first gets the tables; copy puts the row on the clipboard.
    @Test func tablesFirstThenCopy() throws {
        let fixture = try fixtureWithTwins()
        try fixture.cliptab("create", "other")
        let launcher = fixture.data.appending("launcher")
        try script(launcher, "cat >> \"$1\"\nsed -n 2p \"$1\"")
        let recorded = fixture.data.appending("given")
        let result = try fixture.cliptab("pick", "--launcher", "\(launcher) \(recorded)", "--action", "copy")
        #expect(result.exitCode == 0 && result.outputText == "", "\(result.errorText)")
        #expect(contents(recorded).hasPrefix("1\tother\n2\tt\n1\talpha\n"))
        // The same line number at both levels: the table t, then its row "beta two".
        #expect(try fixture.clipboard() == "beta two")
    }

    /// A launcher that prints forever is read one bounded line at most, then stopped.
    ///
    /// Its first line is the answer; one that never prints a newline is an error after the
    /// bound. The launcher counts what it managed to write before its pipe closed.
    @Test func aLauncherPrintingForeverIsReadOneBoundedLine() throws {
        let fixture = try fixtureWithTwins()
        let launcher = fixture.data.appending("launcher")
        let written = fixture.data.appending("written")
        // `endless_writer.py`: writes `$1` (N for a newline) forever, and at the broken pipe how
        // much it wrote.
        try script(
            launcher,
            """
            cat > /dev/null
            exec python3 '\(HelperPrograms.path("endless_writer.py"))' "$1" "$2"
            """)
        var result = try fixture.cliptab(
            "pick", "t", "--launcher", "\(launcher) 2N \(written)", "--action", "print")
        #expect(result.exitCode == 0 && result.outputText == "beta two", "\(result.errorText)")
        // Written: what the pipe holds and one read (64 KiB), not gigabytes.
        #expect((Int(contents(written)) ?? .max) <= 1 << 20, "the launcher wrote \(contents(written)) bytes")
        result = try fixture.cliptab(
            "pick", "t", "--launcher", "\(launcher) 1 \(written)", "--action", "print")
        #expect(
            result.exitCode == 1 && result.outputText == ""
                && result.errorText.contains("printed more than 65536 bytes without a newline"),
            "\(result.errorText)")
        #expect((Int(contents(written)) ?? .max) <= 1 << 20, "the launcher wrote \(contents(written)) bytes")
    }

    /// A SIGTERM to `cliptab pick` while its launcher waits for a choice ends the launcher
    /// too (it runs in a process group of its own, which the signal does not reach), and
    /// cliptab ends by that signal.
    @Test func aStoppedPickStopsItsLauncher() throws {
        let fixture = try fixtureWithTwins()
        let launcher = fixture.data.appending("launcher")
        let pidFile = fixture.data.appending("launcher.pid")
        // Reads every line, then waits for a choice that never comes.
        try script(launcher, "cat > /dev/null\necho $$ > \"$1\"\nexec sleep 600")
        let pick = try ChildProcess.spawn(
            BuiltProducts.path(of: "cliptab"),
            ["pick", "t", "--launcher", "\(launcher) \(pidFile)", "--action", "print"],
            environment: fixture.environment)
        var launcherPid: pid_t = 0
        #expect(
            eventually {
                launcherPid = pid_t(contents(pidFile).split(separator: "\n").first ?? "") ?? 0
                return launcherPid > 0 && contents("/proc/\(launcherPid)/comm") == "sleep\n"
            }, "the launcher did not get its lines")
        pick.signal(SIGTERM)
        #expect(pick.waitForExit(timeoutMilliseconds: 10_000) == .signaled(SIGTERM))
        // Gone, or a zombie waiting to be reaped by whoever inherited it.
        #expect(
            eventually {
                let state = contents("/proc/\(launcherPid)/stat").split(separator: " ").dropFirst(2).first
                return state == nil || state == "Z"
            }, "the launcher \(launcherPid) still runs")
    }

    /// Rows (and a table name) holding ESC, C1 and bidirectional controls reach the launcher
    /// with them made visible as `show` writes them, never raw.
    @Test func controlCharactersReachTheLauncherVisible() throws {
        let fixture = try MenuFixture()
        #expect(try fixture.cliptab("create", "c").exitCode == 0)
        let hostile = "red\u{1B}[31m\u{1B}]0;owned\u{07}\u{9B}2J\u{7F} invoice\u{202E}fdp.exe\u{2066}"
        try fixture.cliptab("add", "c", hostile)
        let launcher = try recordingLauncher(fixture, printing: "1")
        let result = try fixture.cliptab("pick", "c", "--launcher", launcher.command, "--action", "print")
        #expect(result.exitCode == 0 && result.outputText == hostile, "\(result.errorText)")
        let given = contents(launcher.given)
        #expect(given == "1\tred\\x1b[31m\\x1b]0;owned\\x07\\u{9b}2J\\x7f invoice\\u{202e}fdp.exe\\u{2066}\n")
        #expect(
            !given.unicodeScalars.contains { [0x1B, 0x07, 0x9B, 0x7F, 0x202E, 0x2066].contains($0.value) })
    }

    /// A row of one line of a megabyte reaches the launcher cut to 2000 characters (so that
    /// dmenu's answer, the whole line, stays within the answer's bound); the choice still
    /// gives the whole text.
    @Test func aLongRowIsOfferedCut() throws {
        let fixture = try MenuFixture()
        #expect(try fixture.cliptab("create", "t").exitCode == 0)
        let long = String(repeating: "y", count: 1_000_000)
        #expect(try fixture.cliptab("add", "t", "--file", "-", input: long).exitCode == 0)
        let launcher = try recordingLauncher(fixture, printing: "1")
        let result = try fixture.cliptab("pick", "t", "--launcher", launcher.command, "--action", "print")
        #expect(result.exitCode == 0 && result.outputText == long, "\(result.errorText)")
        #expect(contents(launcher.given) == "1\t" + String(repeating: "y", count: 2000) + "…\n")
    }

    /// A secret table's rows reach the launcher as their names or the mask, never their
    /// text; the choice still maps back to the row, through the real dmenu too.
    @Test func aSecretTableOffersNamesOrTheMaskNeverTheText() throws {
        let fixture = try MenuFixture()
        #expect(try fixture.cliptab("create", "t").exitCode == 0)
        #expect(try fixture.cliptab("add", "t", "--name", "mail", "hunter2 mail").exitCode == 0)
        #expect(try fixture.cliptab("add", "t", "hunter2 bank").exitCode == 0)
        try fixture.session.call("SetSecret", [.string("t"), .boolean(true)])
        let launcher = try recordingLauncher(fixture, printing: "2")
        let result = try fixture.cliptab("pick", "t", "--launcher", launcher.command, "--action", "print")
        #expect(result.exitCode == 0 && result.outputText == "hunter2 bank", "\(result.errorText)")
        #expect(contents(launcher.given) == "1\tmail\n2\t••••••••\n")

        let wrapper = try recordingWrapper(fixture, "dmenu")
        let (status, output) = try pickThrough(
            fixture, environment: wrapper.environment, launcher: "dmenu", windowClass: "^dmenu$",
            action: "copy", filter: "mail")
        #expect(status == 0 && output == "")
        #expect(try fixture.clipboard() == "hunter2 mail")
        #expect(contents(wrapper.input) == "1  mail\n2  ••••••••\n")
        #expect(try fixture.grabIsFree())
    }

    /// A directory with a wrapper named like `program` that records its arguments and input
    /// before running the real one.
    func recordingWrapper(_ fixture: MenuFixture, _ program: String) throws -> (
        environment: [String: String], input: String, arguments: String
    ) {
        let real = try ChildProcess.run("sh", ["-c", "command -v \(program)"]).outputText.trimmingCharacters(
            in: "\n")
        #expect(real.hasPrefix("/"), "\(program) is not installed")
        let directory = fixture.data.appending("bin")
        _ = try ChildProcess.run("mkdir", ["-p", directory])
        let input = fixture.data.appending("\(program).in")
        let arguments = fixture.data.appending("\(program).args")
        try script(
            directory + "/" + program, "printf '%s\\n' \"$@\" > \(arguments)\ntee \(input) | \(real) \"$@\"")
        var environment = fixture.environment
        environment["PATH"] = directory + ":" + (environment["PATH"] ?? "")
        return (environment, input, arguments)
    }

    /// Starts `cliptab pick` with a wrapped launcher, waits for the launcher's window, types
    /// `filter` and Return; returns the pick's result.
    func pickThrough(
        _ fixture: MenuFixture, environment: [String: String], launcher: String, windowClass: String,
        action: String, filter: String, keys: [String] = ["Return"]
    ) throws -> (Int32?, String) {
        let pick = try ChildProcess.spawn(
            BuiltProducts.path(of: "cliptab"), ["pick", "t", "--launcher", launcher, "--action", action],
            environment: environment, stdout: .pipe, stderr: .pipe)
        let deadline = MonotonicClock.milliseconds() + 15_000
        var shown = false
        while !shown && MonotonicClock.milliseconds() < deadline && pick.isRunning {
            shown = !(try fixture.tool("xdotool", "search", "--onlyvisible", "--classname", windowClass))
                .isEmpty
            if !shown { usleep(50_000) }
        }
        #expect(shown, "the \(launcher) window did not show")
        try fixture.tool("xdotool", "type", filter)
        _ = try ChildProcess.run("xdotool", ["key"] + keys, environment: fixture.environment)
        let status = fixture.exitCode(of: pick)
        return (status, String(decoding: readAll(pick.standardOutput), as: UTF8.self))
    }

    /// The real dmenu: given numbered lines and its options, typed into, its answer copied.
    @Test func throughDmenu() throws {
        let fixture = try fixtureWithTwins()
        let wrapper = try recordingWrapper(fixture, "dmenu")
        let (status, output) = try pickThrough(
            fixture, environment: wrapper.environment, launcher: "dmenu", windowClass: "^dmenu$",
            action: "copy",
            filter: "status")
        #expect(status == 0 && output == "")
        #expect(try fixture.clipboard() == "git status")
        #expect(
            contents(wrapper.input)
                == "1  alpha\n2  beta two\n3  Shell › ls -la\n4  Shell › git status\n5  Shell › multi ⏎\n"
                + "6  Shell › multi ⏎\n")
        #expect(contents(wrapper.arguments) == "-i\n-l\n20\n-p\nt\n")
        #expect(try fixture.grabIsFree())
    }

    /// The real rofi: given the bare lines, it answers with an index (-format i) that maps to
    /// the second of two rows that look the same.
    @Test func throughRofi() throws {
        let fixture = try fixtureWithTwins()
        let wrapper = try recordingWrapper(fixture, "rofi")
        let (status, output) = try pickThrough(
            fixture, environment: wrapper.environment, launcher: "rofi", windowClass: "^rofi$",
            action: "print",
            filter: "multi")
        // The first of the two "multi" rows is chosen by Return on the filtered list.
        #expect(status == 0 && output == "multi\nline\n")
        #expect(
            contents(wrapper.input)
                == "alpha\nbeta two\nShell › ls -la\nShell › git status\nShell › multi ⏎\nShell › multi ⏎\n")
        #expect(contents(wrapper.arguments) == "-dmenu\n-i\n-format\ni\n-p\nt\n")
        let (second, secondOutput) = try pickThrough(
            fixture, environment: wrapper.environment, launcher: "rofi", windowClass: "^rofi$",
            action: "print",
            filter: "multi", keys: ["Down", "Return"])
        #expect(second == 0 && secondOutput == "multi\nother")
        #expect(try fixture.grabIsFree())
    }
}
