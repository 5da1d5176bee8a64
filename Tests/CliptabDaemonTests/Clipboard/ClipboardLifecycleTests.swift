// SPDX-License-Identifier: MIT
import CliptabContract
import DBus
import DaemonTestSupport
import Glibc
import Posix
import TestSupport
import Testing

/// A clipboard manager made of Tk: it owns CLIPBOARD_MANAGER, prints `ready`, and on
/// SAVE_TARGETS fetches the clipboard's text, prints `saved` and then owns CLIPBOARD with
/// the text, as managers do when the owner exits.
let tkClipboardManager = HelperPrograms.source("tk_clipboard_manager.py")

/// The clipboard methods with a display, read back by xclip: what the daemon's copy does
/// after the call (cleared, kept, handed over at exit) and the section and menu methods.
@Suite(.serialized)
struct ClipboardLifecycleTests {
    /// A daemon on a private bus and display, with a table "t" and a secret table "pw".
    final class Setup {
        let daemon: DaemonProcess

        init(arguments: [String] = []) throws {
            daemon = try DaemonProcess(arguments: arguments, withDisplay: true)
            try daemon.call("CreateTable", [s("t")])
            try daemon.call("CreateTable", [s("pw")])
            try daemon.call("SetSecret", [s("pw"), .boolean(true)])
            try daemon.call("InsertRow", [s("pw"), i(0), i(-1), s("hunter2")])
        }

        /// Appends `texts` to section 0 of "t".
        func add(_ texts: String...) throws {
            for text in texts { try daemon.call("InsertRow", [s("t"), i(0), i(-1), s(text)]) }
        }

        /// What `xclip -o` finds on CLIPBOARD: its output, or nil when it fails (no owner).
        func clipboard() throws -> String? {
            let result = try ChildProcess.run(
                "xclip", ["-selection", "clipboard", "-o"], environment: daemon.environment,
                timeoutMilliseconds: 20_000)
            return result.termination == .exited(0) ? result.outputText : nil
        }

        /// Starts the Tk clipboard manager and waits until it owns CLIPBOARD_MANAGER.
        func startClipboardManager() throws -> ChildProcess {
            let manager = try ChildProcess.spawn(
                "python3", ["-c", tkClipboardManager], environment: daemon.environment, stdout: .pipe,
                stderr: .null)
            guard manager.readLine(timeoutMilliseconds: 20_000) == "ready" else {
                manager.terminate()
                throw FixtureError("the Tk clipboard manager did not start")
            }
            return manager
        }

        /// Stops the daemon with SIGTERM, as a session ending does, and waits for its exit.
        func stopDaemon() {
            daemon.process.signal(SIGTERM)
            #expect(daemon.process.waitForExit(timeoutMilliseconds: 10_000) == .exited(0))
        }
    }

    /// A secret copy's pending clear leaves a newer, non-secret copy alone: the timer was for
    /// the secret, and the clipboard no longer holds it.
    @Test func secretClearSparesANewerCopy() throws {
        // Long enough for the plain copy to come while the secret's timer is pending, even
        // on a busy machine (were it later, the test would pass without testing anything).
        let setup = try Setup(arguments: ["--secret-clear-ms", "1200"])
        try setup.add("plain")
        try setup.daemon.call("Copy", [s("pw"), i(0), i(0)])
        let copied = MonotonicClock.milliseconds()
        try setup.daemon.call("Copy", [s("t"), i(0), i(0)])
        #expect(MonotonicClock.milliseconds() - copied < 1200, "the plain copy came after the secret's clear")
        // Past the secret's clear time (1200 ms after its copy), the plain copy stays.
        #expect(
            try holds(for: 2_000) { try setup.clipboard() == "plain" },
            "the secret's timer cleared a later copy")
        // The secret's own clear still works: copied again, it is gone after the time.
        try setup.daemon.call("Copy", [s("pw"), i(0), i(0)])
        #expect(try eventually { try setup.clipboard() == nil })
    }

    /// ClearClipboard gives the selection up: afterwards nobody owns CLIPBOARD.
    @Test func clearClipboardGivesTheSelectionUp() throws {
        let setup = try Setup()
        try setup.add("to be cleared")
        try setup.daemon.call("Copy", [s("t"), i(0), i(0)])
        #expect(try setup.clipboard() == "to be cleared")
        #expect(try setup.daemon.call("ClearClipboard") == [])
        #expect(try setup.clipboard() == nil, "CLIPBOARD still has an owner after ClearClipboard")
        #expect(setup.daemon.errorName("GetClipboard") == CliptabBus.errorPrefix + "ClipboardEmpty")
    }

    /// With nobody owning CLIPBOARD, GetClipboard answers ClipboardEmpty.
    @Test func getClipboardWithNoOwnerIsEmpty() throws {
        let setup = try Setup()
        #expect(try setup.clipboard() == nil)
        #expect(setup.daemon.errorName("GetClipboard") == CliptabBus.errorPrefix + "ClipboardEmpty")
    }

    /// At exit the daemon hands a copy to the running clipboard manager (SAVE_TARGETS), so
    /// the text outlives it; a secret copy is never handed over.
    @Test func exitHandsTheCopyToAClipboardManager() throws {
        let secretSetup = try Setup()
        let manager = try secretSetup.startClipboardManager()
        defer { manager.terminate(graceMilliseconds: 1000) }
        try secretSetup.daemon.call("Copy", [s("pw"), i(0), i(0)])
        #expect(try secretSetup.clipboard() == "hunter2")
        secretSetup.stopDaemon()
        #expect(manager.readLine(timeoutMilliseconds: 2000) == nil, "a secret reached the clipboard manager")
        #expect(try secretSetup.clipboard() == nil)

        // A second daemon on the same display, with the same manager still running.
        let display = try #require(secretSetup.daemon.display)
        let daemon = try DaemonProcess(environment: ["DISPLAY": display])
        try daemon.call("CreateTable", [s("t")])
        try daemon.call("InsertRow", [s("t"), i(0), i(0), s("keep me ✓")])
        try daemon.call("Copy", [s("t"), i(0), i(0)])
        daemon.process.signal(SIGTERM)
        #expect(daemon.process.waitForExit(timeoutMilliseconds: 10_000) == .exited(0))
        #expect(manager.readLine(timeoutMilliseconds: 10_000) == "saved", "no SAVE_TARGETS hand-over at exit")
        #expect(try secretSetup.clipboard() == "keep me ✓")
    }

    /// CopySection puts the section's rows, joined, on the clipboard.
    @Test func copySectionWithADisplay() throws {
        let setup = try Setup()
        try setup.add("one", "two", "three")
        #expect(try setup.daemon.call("CopySection", [s("t"), i(0), s(", ")]) == [s("one, two, three")])
        #expect(try setup.clipboard() == "one, two, three")
        #expect(try setup.daemon.call("CopySection", [s("t"), i(-1), s("\n")]) == [s("one\ntwo\nthree")])
        #expect(try setup.clipboard() == "one\ntwo\nthree")
    }

    /// PerformAction's copy, cut and paste reach the clipboard as the methods they stand for.
    @Test func performActionWithADisplay() throws {
        let setup = try Setup()
        try setup.add("first", "second")
        #expect(try setup.daemon.call("PerformAction", [s("t"), s("copy"), i(0), i(1)]) == [s("second")])
        #expect(try setup.clipboard() == "second")
        #expect(try setup.daemon.call("PerformAction", [s("t"), s("cut"), i(0), i(0)]) == [s("first")])
        #expect(try setup.clipboard() == "first")
        #expect(try setup.daemon.call("GetCell", [s("t"), i(0), i(0)]) == [s("second")])
        #expect(try setup.daemon.call("PerformAction", [s("t"), s("paste"), i(0), i(-1)]) == [s("first")])
        #expect(try setup.daemon.call("GetCell", [s("t"), i(0), i(1)]) == [s("first")])
    }
}
