// SPDX-License-Identifier: MIT
import CliptabContract
import DBus
import DaemonTestSupport
import Glibc
import Posix
import TestSupport
import Testing

/// The daemon's clipboard under a real Xvfb, read and written by clients nobody here wrote.
@Suite(.serialized)
struct ClipboardTests {
    /// A daemon on a private bus and a private display, with a table "t".
    final class Setup {
        let display: VirtualDisplay
        let daemon: DaemonProcess

        init(arguments: [String] = []) throws {
            display = try VirtualDisplay()
            daemon = try DaemonProcess(
                arguments: arguments, environment: ["DISPLAY": display.display])
            try daemon.call("CreateTable", [s("t")])
        }

        var environment: [String: String] { daemon.environment }

        /// Runs an X client with this display; fails the test if it does not exit 0.
        func client(_ tool: String, _ arguments: [String], input: [UInt8]? = nil) throws -> CommandResult {
            try ChildProcess.run(
                tool, arguments, environment: environment, input: input, timeoutMilliseconds: 20_000)
        }

        /// Inserts `text` at the end of section 0 and returns its row index.
        @discardableResult
        func add(_ text: String) throws -> Int32 {
            try daemon.call("InsertRow", [s("t"), i(0), i(-1), s(text)])
            let sections = try daemon.call("GetSections", [s("t")])
            guard case .array(_, let list) = sections.first, case .structure(let fields) = list.first,
                case .uint32(let count) = fields[2]
            else { throw FixtureError("GetSections gave \(sections)") }
            return Int32(count) - 1
        }
    }

    static let samples: [String] = [
        "plain ASCII", "ünïcödé — 日本語 — emoji 🎉👩‍👩‍👧", "tabs\tand\nnew\nlines\n", "",
    ]

    /// After Copy, xclip, xsel and a Tk program read exactly the cell's bytes.
    @Test func copiedTextReadsBackExactly() throws {
        let setup = try Setup()
        for text in Self.samples {
            let row = try setup.add(text)
            #expect(try setup.daemon.call("Copy", [s("t"), i(0), i(row)]) == [s(text)])
            let xclip = try setup.client("xclip", ["-selection", "clipboard", "-o"])
            #expect(xclip.termination == .exited(0))
            #expect(xclip.standardOutput == Array(text.utf8), "xclip read of \(text.debugDescription)")
            let xsel = try setup.client("xsel", ["-b", "-o"])
            #expect(xsel.standardOutput == Array(text.utf8), "xsel read of \(text.debugDescription)")
            if !text.isEmpty {
                let tk = try setup.client(
                    "python3",
                    [
                        "-c",
                        "import sys, tkinter; r = tkinter.Tk(); r.withdraw(); "
                            + "sys.stdout.buffer.write(r.clipboard_get().encode('utf-8'))",
                    ])
                #expect(tk.outputText == text, "Tk read of \(text.debugDescription): \(tk.errorText)")
            }
        }
        let targets = try setup.client("xclip", ["-selection", "clipboard", "-t", "TARGETS", "-o"])
        for target in ["TARGETS", "UTF8_STRING", "STRING", "TIMESTAMP"] {
            #expect(targets.outputText.contains(target))
        }
    }

    /// Paste takes text owned by xclip and by xsel, small and 10 MiB, into the table exactly.
    @Test func pasteFromOtherPrograms() throws {
        // The wait bounds only a hang: 10 MiB in 256 KiB steps can take seconds on a busy machine.
        let setup = try Setup(arguments: ["--paste-timeout-ms", "30000"])
        let small = "pasted\ttext ✓\n"
        var big = String(repeating: "x", count: 10 << 20)
        big += "end"
        for (tool, arguments) in [("xclip", ["-selection", "clipboard", "-i"]), ("xsel", ["-b", "-i"])] {
            for text in [small, big] {
                // xclip and xsel fork a server that keeps the selection; stop it afterwards.
                let owner = try ChildProcess.spawn(
                    tool, arguments + (tool == "xclip" ? ["-quiet"] : ["-n"]), environment: setup.environment,
                    stdin: .pipe, stdout: .null, stderr: .null)
                try owner.write(Array(text.utf8))
                owner.closeStandardInput()
                try waitUntilOwned(by: text, setup)
                let reply = try setup.daemon.call("Paste", [s("t"), i(0), i(0)], timeout: 30_000)
                #expect(reply == [s(text)], "\(tool) paste of \(text.utf8.count) bytes")
                #expect(try setup.daemon.call("GetCell", [s("t"), i(0), i(0)], timeout: 30_000) == [s(text)])
                #expect(try setup.daemon.call("GetClipboard", [], timeout: 30_000) == [s(text)])
                owner.terminate()
            }
        }
    }

    private func waitUntilOwned(by text: String, _ setup: Setup) throws {
        let deadline = MonotonicClock.milliseconds() + 10_000
        while MonotonicClock.milliseconds() < deadline {
            let probe = try ChildProcess.run(
                "xclip", ["-selection", "clipboard", "-o"], environment: setup.environment,
                timeoutMilliseconds: 20_000)
            if probe.standardOutput.count == text.utf8.count { return }
            usleep(20_000)
        }
        throw FixtureError("the clipboard owner did not come up")
    }

    /// With nobody owning the clipboard, Paste is ClipboardEmpty and inserts nothing.
    @Test func pasteWithNothingToPaste() throws {
        let setup = try Setup()
        #expect(
            setup.daemon.errorName("Paste", [s("t"), i(0), i(0)]) == CliptabBus.errorPrefix + "ClipboardEmpty"
        )
        #expect(try setup.daemon.call("GetRevision", [s("t")]) == [.uint64(0)])
    }

    /// Cut deletes the row once the clipboard holds it; without a display it deletes nothing.
    @Test func cutMovesTheRowToTheClipboard() throws {
        let setup = try Setup()
        try setup.add("cut me")
        try setup.add("stay")
        #expect(try setup.daemon.call("Cut", [s("t"), i(0), i(0)]) == [s("cut me")])
        #expect(try setup.client("xclip", ["-selection", "clipboard", "-o"]).outputText == "cut me")
        #expect(try setup.daemon.call("GetCell", [s("t"), i(0), i(0)]) == [s("stay")])

        let headless = try DaemonProcess()
        try headless.call("CreateTable", [s("t")])
        try headless.call("InsertRow", [s("t"), i(0), i(0), s("kept")])
        #expect(
            headless.errorName("Cut", [s("t"), i(0), i(0)]) == CliptabBus.errorPrefix + "ClipboardUnavailable"
        )
        #expect(try headless.call("GetCell", [s("t"), i(0), i(0)]) == [s("kept")])
    }

    /// A secret copy offers the password hint and is cleared after the timeout, unless
    /// another program took the clipboard meanwhile.
    @Test func secretCopies() throws {
        let setup = try Setup(arguments: ["--secret-clear-ms", "700"])
        try setup.daemon.call("SetSecret", [s("t"), .boolean(true)])
        try setup.add("hunter2")
        try setup.daemon.call("Copy", [s("t"), i(0), i(0)])
        let hint = try setup.client(
            "xclip", ["-selection", "clipboard", "-t", "x-kde-passwordManagerHint", "-o"])
        #expect(hint.outputText == "secret")
        #expect(try setup.client("xclip", ["-selection", "clipboard", "-o"]).outputText == "hunter2")
        var after = ""
        #expect(
            try eventually {
                let read = try setup.client("xclip", ["-selection", "clipboard", "-o"])
                after = read.outputText
                return read.termination != .exited(0) || read.outputText.isEmpty
            }, "still served: \(after)")

        try setup.daemon.call("Copy", [s("t"), i(0), i(0)])
        let other = try ChildProcess.spawn(
            "xclip", ["-selection", "clipboard", "-i", "-quiet"], environment: setup.environment,
            stdin: .pipe,
            stdout: .null, stderr: .null)
        try other.write(Array("someone else".utf8))
        other.closeStandardInput()
        try waitUntilOwned(by: "someone else", setup)
        // Past the secret's clear time (700 ms after its copy), the other program's text stays.
        #expect(
            try holds(for: 1_200) {
                try setup.client("xclip", ["-selection", "clipboard", "-o"]).outputText == "someone else"
            })
        other.terminate()
    }

    /// ClipboardChanged announces a copy with its row id, and the loss of the clipboard.
    @Test func clipboardChangedSignals() throws {
        let setup = try Setup()
        let listener = try BusConnection.connect(address: setup.daemon.bus.address)
        try listener.addMatch(
            "type='signal',interface='io.github.cliptab.Cliptab1',member='ClipboardChanged'")
        let id = try setup.daemon.call("InsertRow", [s("t"), i(0), i(0), s("signal me")])
        try setup.daemon.call("Copy", [s("t"), i(0), i(0)])
        let owned = try nextSignal(listener)
        #expect(owned == [.boolean(true), try #require(id.first)])
        let other = try ChildProcess.spawn(
            "xclip", ["-selection", "clipboard", "-i", "-quiet"], environment: setup.environment,
            stdin: .pipe,
            stdout: .null, stderr: .null)
        try other.write(Array("theirs".utf8))
        other.closeStandardInput()
        #expect(try nextSignal(listener) == [.boolean(false), .uint64(0)])
        other.terminate()
    }

    private func nextSignal(_ connection: BusConnection) throws -> [BusValue] {
        let deadline = MonotonicClock.milliseconds() + 10_000
        while MonotonicClock.milliseconds() < deadline {
            if let message = connection.readMessage(timeoutMilliseconds: 200),
                message.member == "ClipboardChanged"
            {
                return try message.readValues()
            }
        }
        throw FixtureError("no ClipboardChanged signal within 10 s")
    }

    /// Killing Xvfb leaves the daemon serving tables; a new Xvfb on the same display brings
    /// the clipboard back.
    @Test func displayLossAndReturn() throws {
        var display: VirtualDisplay? = try VirtualDisplay()
        let name = display!.display
        let daemon = try DaemonProcess(environment: ["DISPLAY": name])
        try daemon.call("CreateTable", [s("t")])
        try daemon.call("InsertRow", [s("t"), i(0), i(0), s("before")])
        try daemon.call("Copy", [s("t"), i(0), i(0)])
        display!.killKeepingNumber()
        display = nil
        // The daemon notices the lost connection on its next turn: Copy then says so.
        #expect(
            eventually(within: 10_000) {
                daemon.errorName("Copy", [s("t"), i(0), i(0)]) == CliptabBus.errorPrefix
                    + "ClipboardUnavailable"
            })
        #expect(try daemon.call("GetCell", [s("t"), i(0), i(0)]) == [s("before")])
        #expect(daemon.process.isRunning)
        let again = try VirtualDisplay(display: name)
        #expect(try daemon.call("Copy", [s("t"), i(0), i(0)]) == [s("before")])
        let read = try ChildProcess.run(
            "xclip", ["-selection", "clipboard", "-o"],
            environment: daemon.environment.merging(["DISPLAY": again.display]) { $1 })
        #expect(read.outputText == "before")
    }
}
