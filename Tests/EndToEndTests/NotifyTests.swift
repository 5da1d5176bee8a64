// SPDX-License-Identifier: MIT
import CliptabClient
import DBus
import DaemonTestSupport
import Glibc
import Posix
import TestSupport
import Testing

/// `--notify` and `[cli] notify`: failures (and, on request, successes) reach a notification
/// server on the session bus, never with a secret's text; without a server, stderr only.
@Suite(.serialized) struct NotifyTests {
    /// A secret that must never appear in a notification.
    static let secret = "hunter2-correct-horse"

    /// Runs the built `cliptab` as a user of `session` would.
    func run(_ session: DaemonProcess, _ arguments: String...) throws -> Outcome {
        try runCliptab(arguments, environment: session.environment)
    }

    /// A paste that reaches no window fails with the daemon's own reason, on stderr and in
    /// the notification alike (a bare X server: no window has the input focus).
    @Test func pasteFailureShowsTheDaemonsReason() throws {
        let session = try DaemonProcess(withDisplay: true, homePrefix: "cliptab-notify")
        defer { session.stop() }
        let server = try NotificationService(environment: session.environment)
        defer { server.stop() }
        try session.cliptab().createTable("t")
        try session.cliptab().insertRow(TableCell("t", section: 0, row: -1), "snippet")
        let paste = try run(session, "--notify", "copy", "t", "0:0", "--paste")
        #expect(paste.status == 1, "\(paste)")
        #expect(paste.err.contains("no window has the input focus"), "\(paste.err)")
        let shown = try #require(server.next(), "no notification for the failed paste")
        #expect(shown.summary == "cliptab copy failed")
        #expect(shown.body.contains("no window has the input focus"), "\(shown.body)")
    }

    /// On a Wayland compositor without a virtual keyboard (sway's hidden by a proxy) the
    /// paste fails at once, and the notification says why and what to do.
    @Test func waylandPasteWithoutKeyboardSaysWhatToDo() throws {
        let sway = try HeadlessCompositor(.sway())
        let proxy = try RegistryProxy(sway, hiding: "zwp_virtual_keyboard_manager_v1")
        let session = try DaemonProcess(
            environment: ["WAYLAND_DISPLAY": proxy.socketPath], homePrefix: "cliptab-notify")
        defer { session.stop() }
        let server = try NotificationService(environment: session.environment)
        defer { server.stop() }
        try session.cliptab().createTable("t")
        try session.cliptab().insertRow(TableCell("t", section: 0, row: -1), "snippet")
        let paste = try run(session, "--notify", "copy", "t", "0:0", "--paste")
        #expect(paste.status == 1, "\(paste)")
        #expect(paste.err.contains("offers no virtual keyboard"), "\(paste.err)")
        let shown = try #require(server.next(), "no notification for the failed paste")
        #expect(shown.summary == "cliptab copy failed")
        #expect(
            shown.body.contains("press Ctrl+V (Ctrl+Shift+V in a terminal) yourself")
                && shown.body.contains("the text is on the clipboard instead"), "\(shown.body)")
        #expect(try sway.paste().outputText == "snippet")
    }

    /// Failures and successes, by option and by configuration, against a test server.
    @Test func notificationsReachTheServer() throws {
        let session = try DaemonProcess(
            config: "[cli]\nnotify = failures\n", withDisplay: true, homePrefix: "cliptab-notify")
        defer { session.stop() }
        let server = try NotificationService(environment: session.environment)
        defer { server.stop() }
        try session.cliptab().createTable("vault")
        try session.cliptab().insertRow(TableCell("vault", section: 0, row: -1), Self.secret)
        try session.cliptab().setSecret("vault", true)

        // --notify=never wins over the configuration: nothing is sent for this failure, so
        // the next notification the server prints is the one of the following command.
        let quiet = try run(session, "--notify=never", "copy", "missing", "0:0")
        #expect(quiet.status == 1 && quiet.err.contains("NoSuchTable"), "\(quiet)")

        // The configuration's `failures`: a refused call.
        let refused = try run(session, "copy", "missing", "0:0")
        #expect(refused.status == 1, "\(refused)")
        let first = try #require(server.next(), "no notification for a failure")
        #expect(first.summary == "cliptab copy failed")
        #expect(first.body.contains("missing") && first.body.contains("NoSuchTable"), "\(first.body)")
        #expect(first.urgency == "2")

        // A success is not shown under `failures`, and is under --notify=all, naming the
        // table and never the secret's text (which copy may print, but only to stdout).
        let silent = try run(session, "copy", "vault", "0:0")
        #expect(silent.status == 0, "\(silent)")
        let shown = try run(session, "--notify=all", "copy", "vault", "0:0")
        #expect(shown.status == 0, "\(shown)")
        let second = try #require(server.next(), "no notification for a success")
        #expect(second.summary == "Copied from vault")
        #expect(!second.summary.contains(Self.secret) && !second.body.contains(Self.secret))
        #expect(second.urgency == "0")

        // A failure about the secret row's table: the message names the table, not the text.
        let outOfRange = try run(session, "--notify", "copy", "vault", "5:0")
        #expect(outOfRange.status == 1, "\(outOfRange)")
        let third = try #require(server.next(), "no notification for an index out of range")
        #expect(third.summary == "cliptab copy failed" && third.body.contains("IndexOutOfRange"))
        #expect(!third.body.contains(Self.secret))

        // A usage error with --notify given: the command line could not even be parsed.
        let usage = try run(session, "--notify", "copy", "vault")
        #expect(usage.status == 2, "\(usage)")
        let fourth = try #require(server.next(), "no notification for a usage error")
        #expect(fourth.summary == "cliptab: wrong command line" && fourth.body.contains("missing argument"))

        // The daemon gone: the CLI cannot reach it, but the server is still on the bus.
        _ = session.kill(SIGTERM)
        let unreachable = try run(session, "--notify", "get", "vault", "0:0")
        #expect(unreachable.status == 69, "\(unreachable)")
        let fifth = try #require(server.next(), "no notification when the daemon is gone")
        #expect(fifth.summary == "cliptab get failed" && fifth.body.contains("cliptabd"))
        #expect(server.next(timeoutMilliseconds: 300) == nil)
    }

    /// A FIFO at the configuration path is not read: a failure is reported at once, where
    /// opening the FIFO for reading waited for a writer and held the command.
    @Test func fifoAtTheConfigPathDoesNotHoldTheCLI() throws {
        let session = try DaemonProcess(config: "", homePrefix: "cliptab-notify")
        defer { session.stop() }
        unlink(session.configPath)
        #expect(mkfifo(session.configPath, 0o600) == 0)
        let refused = try runCliptab(
            ["copy", "missing", "0:0"], environment: session.environment, timeoutMilliseconds: 10_000)
        #expect(refused.status == 1 && refused.err.contains("NoSuchTable"), "\(refused)")
    }

    /// Without a notification server the failure goes to stderr only, and the CLI does not
    /// wait for one to be started.
    @Test func withoutAServerStderrOnly() throws {
        let session = try DaemonProcess(homePrefix: "cliptab-notify")
        defer { session.stop() }
        let started = MonotonicClock.milliseconds()
        let outcome = try run(session, "--notify", "copy", "missing", "0:0")
        let elapsed = MonotonicClock.milliseconds() - started
        #expect(outcome.status == 1 && outcome.out == "", "\(outcome)")
        #expect(outcome.err.hasPrefix("cliptab: ") && outcome.err.contains("NoSuchTable"), "\(outcome)")
        // Far above a run's cost, far below a D-Bus activation or call timeout (25 s).
        #expect(elapsed < 10_000, "took \(elapsed) ms")
    }
}
