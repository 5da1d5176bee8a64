// SPDX-License-Identifier: MIT
import DBus
import DaemonTestSupport
import Glibc
import Posix
import TestSupport
import Testing

/// The colours the tests configure, so that a screenshot can be judged by them.
enum MenuColours {
    /// The window's background.
    static let background: UInt32 = 0x10_20_30
    /// Titles (headers, footers, prompt).
    static let title: UInt32 = 0xff_40_00
}

/// An Xvfb, a private bus and a built cliptabd on both (the shared `DaemonProcess`), with a
/// cliptab.conf whose [menu] sets the colours the tests judge screenshots by (its header
/// with a comment after it, a quoted value: the popup once ignored such a section); runs
/// the built `cliptab` and X tools (xdotool, xclip, xwd) against them.
final class MenuFixture {
    /// The daemon, its bus, display and home.
    let session: DaemonProcess

    /// Starts everything and waits until the daemon answers; `enter` is what Enter does,
    /// `menu` the [menu] section's lines in place of the colours the tests judge by.
    init(enter: String = "copy", menu: String? = nil) throws {
        let lines =
            menu ?? """
                background = #102030
                title = #ff4000
                foreground = #ffffff
                selected_background = #306090
                enter = "\(enter)"

                """
        session = try DaemonProcess(
            config: "[menu]  # read as cliptabd reads it: a comment here, quotes below\n" + lines,
            withDisplay: true, homePrefix: "cliptab-menu")
    }

    /// The home (and the store under it).
    var data: TemporaryDirectory { session.home }

    /// The daemon's process.
    var daemon: ChildProcess { session.process }

    /// The environment of clients in this session.
    var environment: [String: String] { session.environment }

    /// Runs the built `cliptab`.
    @discardableResult
    func cliptab(_ arguments: String..., input: String? = nil) throws -> CommandResult {
        try ChildProcess.run(
            BuiltProducts.path(of: "cliptab"), arguments, environment: environment,
            input: input.map { Array($0.utf8) },
            timeoutMilliseconds: 30_000)
    }

    /// Runs an X tool (xdotool, xclip, xwd) and returns its standard output.
    @discardableResult
    func tool(_ name: String, _ arguments: String...) throws -> String {
        try ChildProcess.run(name, arguments, environment: environment, timeoutMilliseconds: 20_000)
            .outputText
    }

    /// Makes table `t`: section 0 with two rows, section 1 "Shell" (footer "run with care")
    /// with three, one of them on two lines.
    func makeSampleTable() throws {
        #expect(try cliptab("create", "t").exitCode == 0)
        try cliptab("add", "t", "alpha", "beta two")
        try cliptab("section", "add", "t", "--header", "Shell", "--footer", "run with care")
        try cliptab("add", "t", "--section", "@Shell", "ls -la", "git status", "multi\nline\n")
    }

    /// Starts `cliptab menu` with `arguments` and waits until its window is shown; returns the
    /// process and the window's id.
    func openMenu(_ arguments: String...) throws -> (ChildProcess, String) {
        try openWindow(of: "cliptab", ["menu"] + arguments)
    }

    /// Starts the built `program` with `arguments` (and `extra` in its environment) and
    /// waits until the X11 popup's window is shown; returns the process and the window's id.
    func openWindow(of program: String, _ arguments: [String], environment extra: [String: String] = [:])
        throws -> (ChildProcess, String)
    {
        let menu = try ChildProcess.spawn(
            BuiltProducts.path(of: program), arguments, environment: environment.merging(extra) { $1 },
            stdout: .pipe, stderr: .pipe)
        let deadline = MonotonicClock.milliseconds() + 15_000
        while MonotonicClock.milliseconds() < deadline {
            let found = try tool("xdotool", "search", "--onlyvisible", "--classname", "^cliptab-menu$")
            if let window = found.split(separator: "\n").first { return (menu, String(window)) }
            guard menu.isRunning else {
                throw FixtureError("\(program) exited before showing its window")
            }
            usleep(30_000)
        }
        throw FixtureError("the menu's window did not show within 15 s")
    }

    /// Waits for `process` to end (at most 15 s) and returns its exit code (-signal if killed).
    func exitCode(of process: ChildProcess) -> Int32? {
        switch process.waitForExit(timeoutMilliseconds: 15_000) {
        case .exited(let code): return code
        case .signaled(let signal): return -signal
        case nil: return nil
        }
    }

    /// The window's geometry from xdotool: x, y, width, height.
    func geometry(of window: String) throws -> (x: Int, y: Int, width: Int, height: Int) {
        var values: [String: Int] = [:]
        for line in try tool("xdotool", "getwindowgeometry", "--shell", window).split(separator: "\n") {
            let parts = line.split(separator: "=")
            if parts.count == 2 { values[String(parts[0])] = Int(parts[1]) }
        }
        return (values["X"] ?? -1, values["Y"] ?? -1, values["WIDTH"] ?? -1, values["HEIGHT"] ?? -1)
    }

    /// The CLIPBOARD's text, read by xclip.
    func clipboard() throws -> String { try tool("xclip", "-selection", "clipboard", "-o") }

    /// Whether another client can grab the keyboard and the pointer right now
    /// (`input_grab_probe.py once`, XGrabKeyboard and XGrabPointer on the root window).
    func grabIsFree() throws -> Bool {
        let result = try ChildProcess.run(
            "python3", ["-c", xlibPythonPrelude + HelperPrograms.source("input_grab_probe.py"), "once"],
            environment: environment, timeoutMilliseconds: 20_000)
        return result.outputText.trimmingCharacters(in: " \n") == "0 0"
    }

    /// A screenshot of the whole screen taken with `xwd -root`.
    func screenshot() throws -> Screenshot {
        let path = data.appending("screen.xwd")
        try tool("xwd", "-root", "-silent", "-out", path)
        return try Screenshot(xwdFile: path)
    }
}

extension CommandResult {
    /// The exit code, or -1 when killed by a signal.
    var exitCode: Int32 {
        if case .exited(let code) = termination { return code }
        return -1
    }
}

extension String {
    /// The text without the given characters at either end.
    func trimmingCharacters(in set: String) -> String {
        var text = Substring(self)
        while let first = text.first, set.contains(first) { text.removeFirst() }
        while let last = text.last, set.contains(last) { text.removeLast() }
        return String(text)
    }
}
