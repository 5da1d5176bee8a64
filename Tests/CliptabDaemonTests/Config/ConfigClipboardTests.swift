// SPDX-License-Identifier: MIT
import DBus
import DaemonTestSupport
import Glibc
import Posix
import TestSupport
import Testing

/// The clipboard settings of the configuration file, under a real Xvfb.
@Suite(.serialized)
struct ConfigClipboardTests {
    final class Setup {
        let display: VirtualDisplay
        let daemon: DaemonProcess

        init(_ config: String) throws {
            display = try VirtualDisplay()
            daemon = try DaemonProcess(config: config, environment: ["DISPLAY": display.display])
        }

        /// What xclip reads from `selection` ("" when nothing is served).
        func read(_ selection: String) throws -> String {
            let result = try ChildProcess.run(
                "xclip", ["-selection", selection, "-o"], environment: daemon.environment,
                timeoutMilliseconds: 20_000)
            return result.termination == .exited(0) ? result.outputText : ""
        }
    }

    /// `selections = clipboard primary` puts a copy on PRIMARY too; after a reload to
    /// `clipboard`, a copy leaves PRIMARY alone.
    @Test func selections() throws {
        let setup = try Setup("[clipboard]\nselections = clipboard primary\n[table \"t\"]\n")
        try setup.daemon.call("InsertRows", [s("t"), i(0), i(-1), strings(["one", "two"])])
        try setup.daemon.call("Copy", [s("t"), i(0), i(0)])
        #expect(try setup.read("clipboard") == "one")
        #expect(try setup.read("primary") == "one")
        try setup.daemon.rewriteConfig("[clipboard]\nselections = clipboard\n[table \"t\"]\n")
        #expect(try setup.daemon.reload() == [])
        try setup.daemon.call("Copy", [s("t"), i(0), i(1)])
        #expect(try setup.read("clipboard") == "two")
        #expect(try setup.read("primary") == "one")
    }

    /// A table made secret by the file offers the password hint, and its copy is cleared
    /// after `secret_clear_ms`; a reload lengthens the time.
    @Test func secretTableAndClearTime() throws {
        let setup = try Setup(
            "[clipboard]\nsecret_clear_ms = 600\n[table \"pw\"]\nactions = copy insert\nsecret = true\n")
        try setup.daemon.call("InsertRow", [s("pw"), i(0), i(-1), s("hunter2")])
        try setup.daemon.call("Copy", [s("pw"), i(0), i(0)])
        let copied = MonotonicClock.milliseconds()
        let hint = try ChildProcess.run(
            "xclip", ["-selection", "clipboard", "-t", "x-kde-passwordManagerHint", "-o"],
            environment: setup.daemon.environment, timeoutMilliseconds: 20_000)
        #expect(hint.outputText == "secret")
        #expect(try setup.read("clipboard") == "hunter2")
        #expect(try eventually(within: 30_000) { try setup.read("clipboard").isEmpty })
        #expect(MonotonicClock.milliseconds() - copied >= 550)

        try setup.daemon.rewriteConfig(
            "[clipboard]\nsecret_clear_ms = 60000\n[table \"pw\"]\nactions = copy insert\nsecret = true\n")
        #expect(try setup.daemon.reload() == [])
        try setup.daemon.call("Copy", [s("pw"), i(0), i(0)])
        // Past the old clear time (550 ms), the new one (60 s) keeps the secret.
        #expect(try holds(for: 1_500) { try setup.read("clipboard") == "hunter2" })
    }

    /// A secret copied to PRIMARY as well as CLIPBOARD leaves both at the clear time; when
    /// another program takes CLIPBOARD first, PRIMARY is still cleared, and the other
    /// program's CLIPBOARD text stays.
    @Test func secretClearedFromPrimaryToo() throws {
        let setup = try Setup(
            "[clipboard]\nselections = clipboard primary\nsecret_clear_ms = 800\n"
                + "[table \"pw\"]\nactions = copy insert\nsecret = true\n")
        try setup.daemon.call("InsertRow", [s("pw"), i(0), i(-1), s("hunter2")])
        try setup.daemon.call("Copy", [s("pw"), i(0), i(0)])
        #expect(try setup.read("primary") == "hunter2")
        #expect(
            try eventually(within: 30_000) {
                try setup.read("clipboard").isEmpty && setup.read("primary").isEmpty
            })

        try setup.daemon.call("Copy", [s("pw"), i(0), i(0)])
        #expect(try setup.read("primary") == "hunter2")
        let other = try ChildProcess.spawn(
            "xclip", ["-selection", "clipboard", "-i", "-quiet"], environment: setup.daemon.environment,
            stdin: .pipe, stdout: .null, stderr: .null)
        defer { other.terminate() }
        try other.write(Array("not secret".utf8))
        other.closeStandardInput()
        #expect(try eventually { try setup.read("clipboard") == "not secret" })
        #expect(try setup.read("primary") == "hunter2")
        #expect(try eventually(within: 30_000) { try setup.read("primary").isEmpty })
        #expect(try setup.read("clipboard") == "not secret")
    }

    /// A secret's PRIMARY copy carries the password hint as its CLIPBOARD copy does, so
    /// that a clipboard manager watching PRIMARY leaves it alone too.
    @Test func secretPrimaryCopyOffersTheHint() throws {
        let setup = try Setup(
            "[clipboard]\nselections = clipboard primary\n[table \"pw\"]\nactions = copy insert\nsecret = true\n"
                + "[table \"open\"]\n")
        try setup.daemon.call("InsertRow", [s("pw"), i(0), i(-1), s("hunter2")])
        try setup.daemon.call("InsertRow", [s("open"), i(0), i(-1), s("plain")])
        func xclip(_ selection: String, _ target: String) throws -> CommandResult {
            try ChildProcess.run(
                "xclip", ["-selection", selection, "-t", target, "-o"], environment: setup.daemon.environment,
                timeoutMilliseconds: 20_000)
        }
        try setup.daemon.call("Copy", [s("pw"), i(0), i(0)])
        for selection in ["clipboard", "primary"] {
            #expect(
                try xclip(selection, "TARGETS").outputText.contains("x-kde-passwordManagerHint"),
                "\(selection)")
            #expect(try xclip(selection, "x-kde-passwordManagerHint").outputText == "secret", "\(selection)")
            #expect(try setup.read(selection) == "hunter2")
        }
        // A table that is not secret offers no hint on either.
        try setup.daemon.call("Copy", [s("open"), i(0), i(0)])
        for selection in ["clipboard", "primary"] {
            #expect(try !xclip(selection, "TARGETS").outputText.contains("x-kde-passwordManagerHint"))
        }
    }

    /// A clipboard text holding NUL bytes is refused by name, for GetClipboard and Paste.
    @Test func clipboardWithNulIsNamed() throws {
        let setup = try Setup("[table \"t\"]\n")
        let owner = try ChildProcess.spawn(
            "xclip", ["-selection", "clipboard", "-i", "-quiet"], environment: setup.daemon.environment,
            stdin: .pipe, stdout: .null, stderr: .null)
        defer { owner.terminate() }
        try owner.write(Array("ab".utf8) + [0] + Array("cd".utf8))
        owner.closeStandardInput()
        #expect(try eventually { try setup.read("clipboard").hasPrefix("ab") })
        for (member, arguments) in [("GetClipboard", [BusValue]()), ("Paste", [s("t"), i(0), i(-1)])] {
            let error = #expect(throws: BusError.self) { try setup.daemon.call(member, arguments) }
            #expect(error?.name.hasSuffix("InvalidArgument") == true, "\(member): \(error?.name ?? "")")
            #expect(error?.message.contains("NUL bytes at offset 2") == true, "\(error?.message ?? "")")
        }
    }

    /// `paste_timeout_ms` bounds the wait for an owner that never answers.
    @Test func pasteTimeout() throws {
        let setup = try Setup("[clipboard]\npaste_timeout_ms = 300\n")
        let owner = try ChildProcess.spawn(
            "xclip", ["-selection", "clipboard", "-i", "-quiet"], environment: setup.daemon.environment,
            stdin: .pipe, stdout: .null, stderr: .null)
        defer { owner.terminate() }
        try owner.write(Array("stuck".utf8))
        owner.closeStandardInput()
        #expect(try eventually { try setup.read("clipboard") == "stuck" })
        owner.signal(SIGSTOP)
        defer { owner.signal(SIGCONT) }

        func timedRead() -> (error: String?, milliseconds: UInt64) {
            let start = MonotonicClock.milliseconds()
            let error = setup.daemon.errorName("GetClipboard")
            return (error, MonotonicClock.milliseconds() - start)
        }
        let short = timedRead()
        #expect(short.error != nil)
        #expect(short.milliseconds >= 250 && short.milliseconds < 1_500, "waited \(short.milliseconds) ms")
        try setup.daemon.rewriteConfig("[clipboard]\npaste_timeout_ms = 2500\n")
        #expect(try setup.daemon.reload() == [])
        let long = timedRead()
        #expect(long.error != nil)
        #expect(long.milliseconds >= 2_400, "waited \(long.milliseconds) ms")
    }
}
