// SPDX-License-Identifier: MIT
import DBus
import Foundation
import Glibc
import Posix
import TestSupport

/// A desktop for paste tests: a private Xvfb and bus, a built `cliptabd` whose log is kept,
/// and real programs to paste into.
final class PasteDesk {
    let display: VirtualDisplay
    let bus: PrivateBus
    let data: TemporaryDirectory
    let logPath: String
    private(set) var daemon: ChildProcess
    let client: BusConnection
    private var programs: [ChildProcess] = []

    /// Starts everything; `xtest` false starts Xvfb without the XTEST extension, `config`
    /// is the text of a cliptab.conf to use.
    init(xtest: Bool = true, config: String? = nil) throws {
        display = try VirtualDisplay(extraArguments: xtest ? [] : ["-extension", "XTEST"])
        bus = try PrivateBus()
        data = try TemporaryDirectory(prefix: "cliptab-paste")
        logPath = data.appending("cliptabd.log")
        var arguments: [String] = []
        if let config {
            let path = data.appending("cliptab.conf")
            try config.write(toFile: path, atomically: true, encoding: .utf8)
            arguments = ["--config", path]
        }
        let environment = DaemonFixture.environment(bus: bus, data: data).merging(
            ["DISPLAY": display.display, "CLIPTAB_TEST_LOG": logPath]) { $1 }
        // The shell only sends the log to a file, then becomes cliptabd.
        daemon = try ChildProcess.spawn(
            "/bin/sh", ["-c", "exec \"$0\" \"$@\" 2>>\"$CLIPTAB_TEST_LOG\"", BuiltProducts.path(of: "cliptabd")]
                + arguments, environment: environment, stdout: .null, stderr: .null)
        client = try BusConnection.connect(address: bus.address)
        let deadline = MonotonicClock.milliseconds() + 10_000
        while (try? call("ListTables")) == nil {
            guard MonotonicClock.milliseconds() < deadline, daemon.isRunning else {
                throw FixtureError("cliptabd did not start: \(log)")
            }
            usleep(20_000)
        }
    }

    deinit {
        for program in programs { program.terminate(graceMilliseconds: 500) }
        daemon.terminate()
    }

    /// The environment of the programs started here (no accessibility bus for GTK).
    var environment: [String: String] {
        DaemonFixture.environment(bus: bus, data: data).merging(
            ["DISPLAY": display.display, "NO_AT_BRIDGE": "1"]) { $1 }
    }

    /// What cliptabd wrote to its log so far.
    var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// Calls a method of the cliptab interface; error replies are thrown as `BusError`.
    @discardableResult
    func call(_ member: String, _ arguments: [BusValue] = [], timeout: Int32 = 20_000) throws -> [BusValue] {
        let message = try BusMessage.methodCall(
            destination: "io.github.cliptab.Cliptab1", path: "/io/github/cliptab/Cliptab1",
            interface: "io.github.cliptab.Cliptab1", member: member)
        try message.append(arguments)
        return try client.call(message, timeoutMilliseconds: timeout).readValues()
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
        try ChildProcess.run(tool, arguments, environment: environment, input: input, timeoutMilliseconds: 20_000)
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

    /// Starts a long-running program on this display; stopped with the desk.
    func start(_ tool: String, _ arguments: [String]) throws -> ChildProcess {
        let program = try ChildProcess.spawn(
            tool, arguments, environment: environment, stdout: .pipe, stderr: .null)
        programs.append(program)
        return program
    }

    /// Gives the input focus to `window` (XSetInputFocus, as a window manager would).
    func focus(_ window: String) throws {
        let result = try run("xdotool", ["windowfocus", "--sync", window])
        guard result.termination == .exited(0) else {
            throw FixtureError("xdotool windowfocus \(window): \(result.errorText)")
        }
    }
}

/// Polls `condition` every 5 ms for at most `milliseconds`; throws naming `what` if it never
/// held.
func waitFor(_ what: String, milliseconds: UInt64 = 10_000, _ condition: () throws -> Bool) throws {
    let deadline = MonotonicClock.milliseconds() + milliseconds
    while try !condition() {
        guard MonotonicClock.milliseconds() < deadline else { throw FixtureError("timed out waiting for \(what)") }
        usleep(5_000)
    }
}

/// A program with a text field that writes the field's text to a file after every change,
/// and prints its window id once it shows (Tk or GTK, through Python).
final class TextFieldProgram {
    let process: ChildProcess
    let window: String
    let outputPath: String

    /// A Tk entry; `onPaste` replaces Tk's own Ctrl+V handling with Python code run for
    /// every Ctrl+V (with `r` the root and `e` the entry), or nil for Tk's own.
    static func tk(on desk: PasteDesk, onPaste: String? = nil) throws -> TextFieldProgram {
        guard let python = python(running: "import tkinter") else {
            throw FixtureError("python3 with tkinter is missing (python3-tk)")
        }
        var script = """
            import sys, os, tkinter
            out = sys.argv[1]
            r = tkinter.Tk(className='PasteTarget')
            v = tkinter.StringVar(r)
            e = tkinter.Entry(r, textvariable=v, width=60)
            e.pack()
            def changed(*args):
                with open(out + '.tmp', 'w', encoding='utf-8') as f:
                    f.write(v.get())
                os.replace(out + '.tmp', out)
            v.trace_add('write', changed)
            changed()
            r.update()
            e.focus_force()
            print(r.wm_frame(), flush=True)

            """
        if let onPaste {
            script += "def paste(event):\n" + onPaste.split(separator: "\n").map { "    \($0)\n" }.joined()
                + "    return 'break'\ne.bind('<Control-v>', paste)\n"
        }
        script += "r.mainloop()\n"
        return try TextFieldProgram(desk: desk, command: python, script: script)
    }

    /// A GTK 3 entry.
    static func gtk(on desk: PasteDesk) throws -> TextFieldProgram {
        guard
            let python = python(
                running: "import gi; gi.require_version('Gtk', '3.0'); from gi.repository import Gtk")
        else { throw FixtureError("python3 with GTK 3 is missing (python3-gi, gir1.2-gtk-3.0)") }
        let script = """
            import sys, os, gi
            gi.require_version('Gtk', '3.0')
            gi.require_version('GdkX11', '3.0')
            from gi.repository import Gtk, GdkX11
            out = sys.argv[1]
            w = Gtk.Window(title='paste target')
            e = Gtk.Entry()
            w.add(e)
            def changed(entry):
                with open(out + '.tmp', 'w', encoding='utf-8') as f:
                    f.write(entry.get_text())
                os.replace(out + '.tmp', out)
            e.connect('changed', changed)
            changed(e)
            w.show_all()
            e.grab_focus()
            print(hex(w.get_window().get_xid()), flush=True)
            Gtk.main()
            """
        return try TextFieldProgram(desk: desk, command: python, script: script)
    }

    private init(desk: PasteDesk, command: String, script: String) throws {
        outputPath = desk.data.appending("field-\(UInt32.random(in: 0...UInt32.max)).txt")
        process = try desk.start(command, ["-c", script, outputPath])
        guard let line = process.readLine(timeoutMilliseconds: 20_000), !line.isEmpty else {
            throw FixtureError("the text field program did not start")
        }
        window = line
        try desk.focus(window)
    }

    /// The field's text now.
    var text: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }

    /// Waits until the field holds `expected` (false when it never did within 5 s).
    func waitForText(_ expected: String) -> Bool {
        (try? waitFor("the field's text", milliseconds: 5_000) { text == expected }) != nil
    }
}

/// Finds a `python3` in `PATH` that can run `check` (the first one found may be a separate
/// installation without the distribution's Tk or GTK bindings).
func python(running check: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
    var seen = Set<String>()
    for directory in path.split(separator: ":") {
        let candidate = "\(directory)/python3"
        guard FileManager.default.isExecutableFile(atPath: candidate) else { continue }
        let resolved = (try? FileManager.default.destinationOfSymbolicLink(atPath: candidate)) ?? candidate
        guard seen.insert(resolved).inserted else { continue }
        let probe = try? ChildProcess.run(candidate, ["-c", check], timeoutMilliseconds: 20_000)
        if probe?.termination == .exited(0) { return candidate }
    }
    return nil
}
