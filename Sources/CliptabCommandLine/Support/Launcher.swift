// SPDX-License-Identifier: MIT
import Glibc
import Posix

/// An external program that shows lines and prints the one chosen: dmenu, rofi, fzf, wofi or
/// any command reading lines on stdin.
///
/// Each kind hands the choice back in its own way; every way maps back to an index into the
/// lines written, which the caller maps to a row id it kept (never to a position in the table
/// or to the text).
struct Launcher {
    /// How the choice comes back.
    enum Kind: Equatable {
        /// dmenu: the line's text, which starts with the id.
        case dmenu
        /// rofi with `-format i`: the line's index.
        case rofi
        /// wofi with `dmenu-print_line_num`: the line's index.
        case wofi
        /// fuzzel with `--index`: the line's index.
        case fuzzel
        /// fzf: the whole line, id field included though hidden.
        case fzf
        /// Any other command: the line, which starts with the id and a tab.
        case command
    }

    /// The kind, from the program's name.
    let kind: Kind
    /// The program and the arguments the user gave.
    let words: [String]

    /// The launcher `text` names (`dmenu`, `rofi -theme x`, `/path/to/picker --flag`).
    init(_ text: String) throws(UsageError) {
        words = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard let program = words.first else { throw UsageError("--launcher needs a command") }
        switch program.split(separator: "/").last.map(String.init) ?? program {
        case "dmenu": kind = .dmenu
        case "rofi": kind = .rofi
        case "wofi": kind = .wofi
        case "fuzzel": kind = .fuzzel
        case "fzf": kind = .fzf
        default: kind = .command
        }
    }

    /// The program and its arguments, with the ones that make the choice map back.
    func commandLine(prompt: String) -> [String] {
        let extra = Array(words.dropFirst())
        switch kind {
        case .dmenu: return [words[0], "-i", "-l", "20", "-p", prompt] + extra
        case .rofi: return [words[0], "-dmenu", "-i", "-format", "i", "-p", prompt] + extra
        case .wofi: return [words[0], "--dmenu", "-D", "dmenu-print_line_num=true", "-p", prompt] + extra
        case .fuzzel: return [words[0], "--dmenu", "--index", "-p", prompt + "> "] + extra
        case .fzf:
            return [
                words[0], "--delimiter", "\t", "--with-nth", "2..", "--no-sort", "--prompt", prompt + "> ",
            ]
                + extra
        case .command: return words
        }
    }

    /// The program and its arguments for a line typed in (a template's input), `prompt`
    /// shown: the answer is the text typed, or the one line offered.
    func askCommandLine(prompt: String) -> [String] {
        let extra = Array(words.dropFirst())
        switch kind {
        case .dmenu: return [words[0], "-p", prompt] + extra
        case .rofi: return [words[0], "-dmenu", "-p", prompt] + extra
        case .wofi: return [words[0], "--dmenu", "-p", prompt] + extra
        case .fuzzel: return [words[0], "--dmenu", "-p", prompt + "> "] + extra
        // fzf: Enter prints the query, whether or not it matches the line offered.
        case .fzf: return [words[0], "--bind", "enter:print-query", "--prompt", prompt + "> "] + extra
        case .command: return words
        }
    }

    /// Asks for a line with `prompt`, offering `suggestion` (a template's default); the
    /// answer, or nil when the launcher was closed without one.
    func ask(prompt: String, suggestion: String?) throws -> String? {
        let (output, succeeded) = try finish(
            try start(commandLine: askCommandLine(prompt: prompt)), suggestion.map { [$0] } ?? [])
        guard succeeded else { return nil }
        // fzf's query is empty when Enter took the line offered.
        return output.isEmpty ? suggestion ?? "" : output
    }

    /// Line `index` as written to the launcher: the text alone where the launcher answers
    /// with an index, else the index first (a number never shown by fzf, and read back).
    func line(_ index: Int, _ text: String) -> String {
        switch kind {
        case .rofi, .wofi, .fuzzel: return text
        case .dmenu: return "\(index + 1)  \(text)"
        case .fzf, .command: return "\(index + 1)\t\(text)"
        }
    }

    /// The index of the line chosen, from what the launcher printed; nil for no choice,
    /// custom text (rofi's -1) or anything that does not name a line written.
    func chosen(_ output: String, count: Int) -> Int? {
        let first =
            output.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? ""
        switch kind {
        case .rofi, .wofi, .fuzzel:
            guard first.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let index = Int(first), index >= 0,
                index < count
            else { return nil }
            return index
        case .dmenu, .fzf, .command:
            let digits = first.prefix(while: { $0.isASCII && $0.isNumber })
            let rest = first.dropFirst(digits.count)
            guard let number = Int(digits), number >= 1, number <= count,
                rest.isEmpty || rest.hasPrefix("\t") || rest.hasPrefix("  ")
            else { return nil }
            return number - 1
        }
    }

    /// The most bytes the launcher's answer line may hold.
    ///
    /// Only its start (a number) is read back; dmenu prints the whole line chosen, whose text
    /// is cut well below this before it is offered.
    static let answerLimit = 65536

    /// Runs the launcher with `lines` on its stdin.
    ///
    /// Returns the first line it printed and whether it exited with status 0. It may wait for
    /// the user as long as they like, but what it prints is bounded: reading stops at the
    /// first newline, or with an error after `answerLimit` bytes without one; then the
    /// launcher is given a moment to exit and is stopped if it does not.
    func run(_ lines: [String], prompt: String) throws -> (output: String, succeeded: Bool) {
        try finish(try start(prompt: prompt), lines)
    }

    /// Starts the launcher, which waits for its lines (given to `finish`): started before the
    /// rows are fetched, its own start-up (display, fonts) overlaps the fetch.
    func start(prompt: String) throws -> ChildProcess {
        try start(commandLine: commandLine(prompt: prompt))
    }

    /// Starts `commandLine` with its standard input and output on pipes.
    private func start(commandLine: [String]) throws -> ChildProcess {
        do {
            let child = try ChildProcess.spawn(
                commandLine[0], Array(commandLine.dropFirst()), stdin: .pipe, stdout: .pipe, stderr: .inherit)
            LauncherStop.arm(for: child.pid)
            return child
        } catch {
            throw CLIFailure.local("cannot run the launcher \(commandLine[0]): \(error)")
        }
    }

    /// Writes `lines` to the started launcher's stdin while reading what it prints; returns
    /// that and whether it exited with status 0.
    ///
    /// Throws, naming the signal, when the launcher was ended by a signal it was not sent
    /// here (it crashed).
    func finish(_ child: ChildProcess, _ lines: [String]) throws -> (output: String, succeeded: Bool) {
        // The bytes written straight, without a joined copy of every line first.
        var input: [UInt8] = []
        input.reserveCapacity(lines.reduce(0) { $0 + $1.utf8.count + 1 })
        for line in lines {
            input += line.utf8
            input.append(UInt8(ascii: "\n"))
        }
        var written = 0
        var output: [UInt8] = []
        var reading = true
        var lineEnded = false
        if input.isEmpty { child.closeStandardInput() }
        while reading {
            var fds = [pollfd(fd: child.standardOutput, events: Int16(POLLIN), revents: 0)]
            if child.standardInput >= 0 {
                fds.append(pollfd(fd: child.standardInput, events: Int16(POLLOUT), revents: 0))
            }
            guard poll(&fds, nfds_t(fds.count), -1) >= 0 || errno == EINTR else { break }
            if fds.count > 1 && fds[1].revents != 0 {
                let count = input.withUnsafeBytes { raw in
                    write(child.standardInput, raw.baseAddress! + written, min(raw.count - written, 65536))
                }
                if count > 0 { written += count }
                // A launcher that stops reading (chosen early, or gone) just ends the input.
                if written == input.count || count < 0 && errno != EINTR && errno != EAGAIN {
                    child.closeStandardInput()
                    input = []
                }
            }
            if fds[0].revents != 0 {
                // Never more than what is left of the line's bound.
                var chunk = [UInt8](repeating: 0, count: min(65536, Self.answerLimit + 1 - output.count))
                let count = chunk.withUnsafeMutableBytes {
                    read(child.standardOutput, $0.baseAddress, $0.count)
                }
                if count > 0 {
                    if let newline = chunk[..<count].firstIndex(of: UInt8(ascii: "\n")) {
                        output += chunk[..<newline]
                        lineEnded = true
                        reading = false
                    } else {
                        output += chunk[..<count]
                        if output.count > Self.answerLimit { reading = false }
                    }
                } else if count == 0 || errno != EINTR && errno != EAGAIN {
                    reading = false
                }
            }
        }
        // Nothing more is read: a launcher still printing gets EPIPE (or SIGPIPE) and ends.
        child.closeStandardOutput()
        if child.standardInput >= 0 { child.closeStandardInput() }
        let exited = child.waitForExit(timeoutMilliseconds: Self.exitGraceMilliseconds)
        let termination = exited ?? child.terminate(graceMilliseconds: Self.exitGraceMilliseconds)
        LauncherStop.disarm()
        // A launcher ended by a signal it was not sent here crashed (fuzzel 1.8.2 segfaults at
        // start on sway after another program's tiny keymap): not the person's "nothing".
        if exited != nil, case .signaled(let signal) = termination, !(lineEnded && signal == SIGPIPE) {
            throw CLIFailure.local(
                "the launcher \(words[0]) "
                    + (isCrashSignal(signal)
                        ? "crashed (\(signalName(signal)))" : "was killed by \(signalName(signal))")
                    + " before anything was chosen")
        }
        if !lineEnded && output.count > Self.answerLimit {
            throw CLIFailure.local(
                "the launcher \(commandLine(prompt: "")[0]) printed more than \(Self.answerLimit) bytes without a newline"
            )
        }
        // A launcher that answered a line and went on (dmenu's Ctrl+Return keeps it open, a
        // broken one keeps printing) was stopped here, or by the closed pipe: its first line
        // is the answer.
        let stoppedAfterAnswer =
            lineEnded && (exited == nil || termination == .signaled(SIGPIPE))
        return (String(decoding: output, as: UTF8.self), termination == .exited(0) || stoppedAfterAnswer)
    }

    /// How long a launcher that has answered (or printed too much) may take to exit.
    static let exitGraceMilliseconds = 1000
}
