// SPDX-License-Identifier: MIT
import CliptabContract
import CliptabDaemon
import DBus
import DaemonTestSupport
import Foundation
import Glibc
import Posix
import TestSupport
import Testing

/// cliptabd on a headless sway against the clipboard owners a desktop has besides wl-copy: one
/// that writes as GLFW does, one that never answers, one whose offer makes the compositor drop
/// every clipboard manager, another program's image and a password manager's marked text.
@Suite(.serialized)
struct WaylandOwnerTests {
    typealias Desk = WaylandClipboardTests.Desk

    /// A text of 1,000,000 bytes, lines of 50.
    static let megabyte = String(
        repeating: "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLM\n", count: 20_000)

    /// Runs `cliptab ARGUMENTS` against the desk's daemon.
    static func cliptab(_ desk: Desk, _ arguments: [String]) throws -> CommandResult {
        try ChildProcess.run(
            BuiltProducts.path(of: "cliptab"), arguments, environment: desk.daemon.environment,
            timeoutMilliseconds: 60_000)
    }

    /// A paste of the row `row` of table "t" with no window to type into: the chord goes
    /// nowhere, and once its `300 ms` wait is over the clipboard is put back as it was.
    static func pasteIntoNothing(_ desk: Desk, row: Int32) throws {
        let reply = try desk.daemon.call(
            "PasteToFocusWithReason", [s("t"), i(0), i(row), .uint32(300)], timeout: 60_000)
        #expect(reply.first == .boolean(false), "\(reply)")
    }

    /// An owner that writes its 1 MB with one write loop and gives up at `EAGAIN` (GLFW):
    /// `cliptab paste` stores all of it, and a paste puts all of it back (before, both were cut
    /// at the pipe's 65,536 bytes, without an error).
    @Test func toolkitOwnerIsReadWhole() throws {
        let desk = try Desk()
        let text = Self.megabyte
        let owner = try ToolkitClipboardOwner(in: desk.sway, text: Array(text.utf8))
        let pasted = try Self.cliptab(desk, ["paste", "t"])
        #expect(pasted.termination == .exited(0), "\(pasted.errorText)")
        #expect(owner.report() == "sent text/plain;charset=utf-8 1000000 0")
        let cell = try desk.daemon.call("GetCell", [s("t"), i(0), i(0)], timeout: 30_000)
        guard case .string(let stored)? = cell.first else { throw FixtureError("GetCell answered \(cell)") }
        let storedWhole = stored == text
        #expect(storedWhole, "stored \(stored.utf8.count) of \(text.utf8.count) bytes")

        try desk.add("a snippet")
        try Self.pasteIntoNothing(desk, row: 1)
        let back = try desk.wlPaste() ?? []
        let restoredWhole = back == Array(text.utf8)
        #expect(restoredWhole, "the paste put back \(back.count) of \(text.utf8.count) bytes")
        withExtendedLifetime(owner) {}
    }

    /// Another program's `image/png` (wl-copy) is on the clipboard again, byte for byte, after
    /// a paste.
    @Test func pasteRestoresAnotherProgramsImage() throws {
        let desk = try Desk()
        var random = SeededRandom("WaylandOwnerTests.image")
        let png: [UInt8] =
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            + (0..<300_000).map { _ in UInt8.random(in: 0...255, using: &random) }
        try desk.sway.copy(png, type: "image/png")
        try desk.add("a snippet")
        try Self.pasteIntoNothing(desk, row: 0)
        #expect(try desk.sway.offeredTypes() == ["image/png"])
        let back = try desk.wlPaste(type: "image/png") ?? []
        let same = back == png
        #expect(same, "the paste put back \(back.count) of \(png.count) bytes")
    }

    /// A password manager's text whose hint is `secret` with a line end (as `echo` writes it):
    /// the paste's snapshot reads the hint as a text read does, so the text put back after a
    /// paste is marked secret again.
    @Test func hintWithALineEndMarksThePastesRestore() throws {
        let desk = try Desk()
        let owner = try ToolkitClipboardOwner(in: desk.sway, text: Array("hunter2".utf8), hint: "secret\n")
        try desk.add("a snippet")
        try Self.pasteIntoNothing(desk, row: 0)
        #expect(try desk.wlPaste() == Array("hunter2".utf8))
        #expect(try desk.sway.offeredTypes().contains("x-kde-passwordManagerHint"))
        #expect(try desk.wlPaste(type: "x-kde-passwordManagerHint") == Array("secret".utf8))
        withExtendedLifetime(owner) {}
    }

    /// An owner that offers text and never writes it: `cliptab paste` gets the timeout error
    /// once the read's deadline is over (the loop wakes for it, with nothing else to wake it),
    /// and the daemon answers other calls meanwhile.
    @Test func silentOwnerTimesOut() throws {
        let desk = try Desk(config: "[clipboard]\npaste_timeout_ms = 3000\n")
        try desk.add("kept")
        let owner = try ToolkitClipboardOwner(in: desk.sway, text: Array("never sent".utf8), serving: .silent)
        let started = MonotonicClock.milliseconds()
        let command = "exec \(BuiltProducts.path(of: "cliptab")) --timeout 60 paste t 2>&1"
        let paste = try ChildProcess.spawn(
            "/bin/sh", ["-c", command], environment: desk.daemon.environment, stdout: .pipe, stderr: .null)
        defer { paste.terminate(graceMilliseconds: 500) }
        #expect(owner.report() == "silent text/plain;charset=utf-8")
        #expect(try desk.daemon.call("GetCell", [s("t"), i(0), i(0)], timeout: 2000) == [s("kept")])
        let ended = paste.waitForExit(timeoutMilliseconds: 30_000)
        let elapsed = MonotonicClock.milliseconds() - started
        #expect(ended == .exited(1))
        let message = paste.readLine(timeoutMilliseconds: 1000) ?? ""
        #expect(message.contains("did not send its data within 3000 ms"), "\(message)")
        // The deadline plus a generous margin for a loaded machine; the CLI would wait 60 s.
        #expect(elapsed < 3000 + 10_000, "answered after \(elapsed) ms")
        let rows = try desk.daemon.call("GetRows", [s("t"), i(0), .uint32(0), .uint32(0)])
        guard case .array(_, let stored)? = rows.first else { throw FixtureError("GetRows answered \(rows)") }
        #expect(stored.count == 1)
        #expect(desk.daemon.process.isRunning)
        withExtendedLifetime(owner) {}
    }

    /// A selection of 5,000 types makes sway 1.7 drop a data-control client that does not
    /// read the whole offer at once (its socket fills): cliptabd logs each loss, `cliptab
    /// status` says when and why it was lost and when it reconnects, the waits back off, and
    /// the clipboard is back once the owner is gone.
    @Test func droppedConnectionIsReportedAndComesBack() throws {
        let desk = try Desk()
        let display = desk.sway.socketPath
        for round in 1...2 {
            let start = desk.daemon.log.count
            // cliptabd busy while the selection is offered (stopped): sway fills its socket
            // with the offer and drops it. The owner is dropped too unless it reads its offer
            // back in time (it may).
            desk.daemon.process.signal(SIGSTOP)
            let owner: ToolkitClipboardOwner
            do {
                defer { desk.daemon.process.signal(SIGCONT) }
                owner = try ToolkitClipboardOwner(
                    in: desk.sway, text: Array("x".utf8), extraTypes: 5000, waitUntilOwning: false)
                // "ready", or nothing once dropped: either way sway has handled the selection.
                _ = owner.report(timeoutMilliseconds: 20_000)
            }
            // A hang bound only: under load sway takes its time to fill the stopped socket.
            try waitFor("the loss in the log", milliseconds: 60_000) {
                String(desk.daemon.log.dropFirst(start)).contains(
                    "clipboard: lost the connection to the Wayland display \(display)")
            }
            let status = try Self.cliptab(desk, ["status"])
            let line = status.outputText.split(separator: "\n").first { $0.hasPrefix("clipboard:") } ?? ""
            #expect(
                line.contains("unavailable (the Wayland connection to \(display) was lost "),
                "round \(round): \(line)")
            #expect(line.contains("; reconnecting in "), "round \(round): \(line)")
            owner.process.terminate(graceMilliseconds: 1000)
            try waitFor("the reconnection", milliseconds: 90_000) {
                String(desk.daemon.log.dropFirst(start)).contains(
                    "clipboard: reconnected to the Wayland display \(display)")
            }
        }
        // Every loss (and failed attempt) was in a row, none after a connection of a minute:
        // the waits are 5 s, then doubled each time.
        let losses = desk.daemon.log.split(separator: "\n").filter {
            $0.contains("the Wayland display \(display)") && $0.contains("; reconnecting in ")
        }
        #expect(losses.count >= 2, "\(desk.daemon.log)")
        for (index, loss) in losses.enumerated() {
            let run = index + 1
            if run > 1 { #expect(loss.contains(" (\(run) times in a row): "), "\(loss)") }
            #expect(loss.hasSuffix("; reconnecting in \(min(5 << (run - 1), 60)) s"), "\(loss)")
        }
        try desk.sway.copy(Array("after".utf8))
        #expect(try desk.daemon.call("GetClipboard") == [s("after")])
        try desk.add("copied")
        #expect(try desk.daemon.call("Copy", [s("t"), i(0), i(0)]) == [s("copied")])
        #expect(try desk.wlPaste() == Array("copied".utf8))
    }
}
