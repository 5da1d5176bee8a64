// SPDX-License-Identifier: MIT
import DBus
import DaemonTestSupport
import Foundation
import Glibc
import Posix
import TestSupport

/// A desktop for paste tests: a private Xvfb and bus, a built `cliptabd` whose log is kept,
/// and real programs to paste into.
final class PasteDesk {
    let display: VirtualDisplay
    let daemon: DaemonProcess
    private var programs: [ChildProcess] = []

    /// Starts everything; `xtest` false starts Xvfb without the XTEST extension, `config`
    /// is the text of a cliptab.conf to use, `environment` more variables for cliptabd.
    init(xtest: Bool = true, config: String? = nil, environment extra: [String: String] = [:]) throws {
        display = try VirtualDisplay(extraArguments: xtest ? [] : ["-extension", "XTEST"])
        daemon = try DaemonProcess(
            config: config, environment: extra.merging(["DISPLAY": display.display]) { $1 },
            homePrefix: "cliptab-paste")
    }

    deinit {
        for program in programs { program.terminate(graceMilliseconds: 500) }
        daemon.stop()
    }

    /// A directory for the files of the programs started here.
    var data: TemporaryDirectory { daemon.home }

    /// The environment of the programs started here (no accessibility bus for GTK).
    var environment: [String: String] { daemon.environment.merging(["NO_AT_BRIDGE": "1"]) { $1 } }

    /// What cliptabd wrote to its log so far.
    var log: String { daemon.log }

    /// Calls a method of the cliptab interface; error replies are thrown as `BusError`.
    @discardableResult
    func call(_ member: String, _ arguments: [BusValue] = [], timeout: Int32 = 60_000) throws -> [BusValue] {
        try daemon.call(member, arguments, timeout: timeout)
    }

    /// `PasteToFocus` of table `table`, row 0:`row`; its `delivered`.
    func paste(_ table: String, row: Int32 = 0, timeoutMilliseconds: UInt32 = 0) throws -> Bool {
        let reply = try call("PasteToFocus", [s(table), i(0), i(row), .uint32(timeoutMilliseconds)])
        guard reply.count == 1, case .boolean(let delivered) = reply[0] else {
            throw FixtureError("PasteToFocus answered \(reply)")
        }
        return delivered
    }

    /// Runs a program on this display to its end.
    func run(_ tool: String, _ arguments: [String], input: [UInt8]? = nil) throws -> CommandResult {
        try ChildProcess.run(
            tool, arguments, environment: environment, input: input, timeoutMilliseconds: 20_000)
    }

    /// Runs the built `cliptab` on this display to its end, with a `--timeout` of 60 s: a
    /// bound on hangs, where the user's default of 5 s would fail a paste on a loaded machine.
    func cliptab(_ arguments: [String]) throws -> CommandResult {
        try run(BuiltProducts.path(of: "cliptab"), ["--timeout", "60"] + arguments)
    }

    /// The CLIPBOARD text as xclip reads it, or nil when xclip finds none.
    func clipboard() throws -> String? {
        let result = try run("xclip", ["-selection", "clipboard", "-o"])
        return result.termination == .exited(0) ? result.outputText : nil
    }

    /// Makes another program (xclip) the CLIPBOARD owner with `bytes` of type `target`;
    /// returns once the owner serves it.
    func ownClipboardElsewhere(_ bytes: [UInt8], target: String = "UTF8_STRING") throws {
        let owner = try ChildProcess.spawn(
            "xclip", ["-quiet", "-i", "-selection", "clipboard", "-t", target], environment: environment,
            stdin: .pipe, stdout: .null, stderr: .null)
        programs.append(owner)
        try owner.write(bytes)
        owner.closeStandardInput()
        try waitFor("xclip to own the clipboard") {
            try run("xclip", ["-selection", "clipboard", "-t", target, "-o"]).standardOutput == bytes
        }
        // xclip exits when it loses the clipboard; forget the ones that did.
        programs.removeAll { !$0.isRunning }
    }

    /// Makes a Tk program the CLIPBOARD owner with `text`, marked with the password-manager
    /// hint `mode` the way KeePassXC marks a password (see `MarkedClipboardOwner`: `secret`,
    /// `none`, another value, or `refuse`); returns once it serves the text.
    func ownClipboardMarked(_ text: String, hint mode: String) throws {
        guard let python = python(running: "import tkinter") else {
            throw FixtureError("python3 with tkinter is missing (python3-tk)")
        }
        let owner = try ChildProcess.spawn(
            python, ["-c", MarkedClipboardOwner.script, mode], environment: environment, stdin: .pipe,
            stdout: .pipe, stderr: .null)
        programs.append(owner)
        try owner.write(Array(text.utf8))
        owner.closeStandardInput()
        guard owner.readLine(timeoutMilliseconds: 20_000) == "ready" else {
            throw FixtureError("the Tk clipboard owner did not start")
        }
        try waitFor("Tk to own the clipboard") { try clipboard() == text }
    }

    /// The value of the password-manager hint CLIPBOARD offers, or nil when it offers none.
    func clipboardHint() throws -> String? {
        let result = try run("xclip", ["-selection", "clipboard", "-t", "x-kde-passwordManagerHint", "-o"])
        return result.termination == .exited(0) ? result.outputText : nil
    }

    /// Starts a long-running program on this display; stopped with the desk.
    func start(_ tool: String, _ arguments: [String]) throws -> ChildProcess {
        let program = try ChildProcess.spawn(
            tool, arguments, environment: environment, stdout: .pipe, stderr: .null)
        programs.append(program)
        return program
    }

    /// Gives the input focus to `window` once it is viewable (`VirtualDisplay.focus`).
    func focus(_ window: String) throws { try display.focus(window, environment: environment) }
}

/// Polls `condition` every 5 ms for at most `milliseconds` (a bound on hangs); throws naming
/// `what` if it never held.
func waitFor(_ what: String, milliseconds: UInt64 = 30_000, _ condition: () throws -> Bool) throws {
    guard try eventually(within: milliseconds, every: 5, condition) else {
        throw FixtureError("timed out waiting for \(what)")
    }
}
