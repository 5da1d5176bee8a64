// SPDX-License-Identifier: MIT
import Glibc
import Posix
import TestSupport
import Testing
import X11Desktop

/// Snapshots of another program's selection (every target it offers) and owning them
/// again; owning at a given time, which the server refuses once a newer owner exists.
@Suite(.serialized)
struct SnapshotTests {
    /// Reads a snapshot of `selection`, driving the service until it completes.
    private func snapshot(_ harness: Harness, maxBytes: Int = 64 << 20) -> Result<
        SelectionSnapshot, SelectionReadError
    >? {
        var result: Result<SelectionSnapshot, SelectionReadError>?
        harness.service.readSnapshot(.clipboard, timeoutMilliseconds: 10_000, maxBytes: maxBytes) {
            result = $0
        }
        harness.pump(milliseconds: 15_000) { result != nil }
        return result
    }

    /// An image larger than a chunk (xclip sends it by INCR) is kept byte for byte and
    /// served again under its own target once its owner is gone.
    @Test func imageIsKeptAndServedAgain() throws {
        let harness = try Harness()
        let png: [UInt8] =
            [0x89, 0x50, 0x4E, 0x47] + (0..<1_500_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let owner = try harness.startOwner(
            ["xclip", "-quiet", "-i", "-selection", "clipboard", "-t", "image/png"], text: png)
        let kept = try #require(try snapshot(harness)?.get())
        #expect(kept.formatCount >= 1 && kept.byteCount >= png.count && !kept.markedSecret)
        owner.terminate(graceMilliseconds: 1000)
        try harness.service.own(.clipboard, snapshot: kept, secret: false)
        let results = try harness.run([
            ["xclip", "-selection", "clipboard", "-t", "image/png", "-o"],
            ["xclip", "-selection", "clipboard", "-t", "TARGETS", "-o"],
        ])
        #expect(results[0].output == png)
        #expect(results[1].outputText.contains("image/png") && results[1].outputText.contains("SAVE_TARGETS"))
    }

    /// A Tk owner's text targets all come back, and its password mark with them; the budget
    /// in bytes is held: past it the read fails as too large instead of keeping a part.
    @Test func textTargetsTheMarkAndTheByteBudget() throws {
        let harness = try Harness()
        let text = Array("grüße, Welt".utf8)
        let owner = try harness.startOwner(
            ["python3", "-c", MarkedClipboardOwner.script, "secret"], text: text)
        defer { owner.terminate(graceMilliseconds: 1000) }
        let kept = try #require(try snapshot(harness)?.get())
        #expect(kept.formatCount >= 2 && kept.markedSecret, "Tk offers UTF8_STRING and STRING at least")
        guard case .failure(.tooLarge) = snapshot(harness, maxBytes: 4) else {
            Issue.record("a snapshot over its budget was not refused")
            return
        }
        owner.terminate(graceMilliseconds: 1000)
        try harness.service.own(.clipboard, snapshot: kept, secret: true)
        let results = try harness.run([
            ["xclip", "-selection", "clipboard", "-t", "UTF8_STRING", "-o"],
            ["xclip", "-selection", "clipboard", "-t", "x-kde-passwordManagerHint", "-o"],
        ])
        #expect(results[0].output == text && results[1].outputText == "secret")
    }

    /// Owning at the time of an earlier ownership: the server refuses once another program
    /// took the selection since, even before its SelectionClear is handled here, and the
    /// newer owner keeps its text.
    @Test func owningAtAnOldTimeNeverBeatsANewerOwner() throws {
        let harness = try Harness()
        let time = try harness.service.own(.clipboard, text: Array("ours".utf8), secret: false)
        // Put back at our own time while still the owner: accepted.
        #expect(
            try harness.service.own(.clipboard, text: Array("ours again".utf8), secret: false, at: time)
                == time)
        let other = try ChildProcess.spawn(
            "xclip", ["-quiet", "-i", "-selection", "clipboard"], environment: harness.environment,
            stdin: .pipe,
            stdout: .null, stderr: .null)
        defer { other.terminate(graceMilliseconds: 1000) }
        try other.write(Array("theirs".utf8))
        other.closeStandardInput()
        // Wait with a separate client, without handling our own events, until xclip owns it.
        try waitUntil("xclip to own the clipboard") {
            try harness.run(["xclip", "-selection", "clipboard", "-o"]).outputText == "theirs"
        }
        #expect(throws: SelectionError.self) {
            try harness.service.own(.clipboard, text: Array("restored".utf8), secret: false, at: time)
        }
        #expect(try harness.run(["xclip", "-selection", "clipboard", "-o"]).outputText == "theirs")
    }

    /// Polls `condition` every 10 ms for at most 10 s.
    private func waitUntil(_ what: String, _ condition: () throws -> Bool) throws {
        let deadline = MonotonicClock.milliseconds() + 10_000
        while try !condition() {
            guard MonotonicClock.milliseconds() < deadline else {
                throw FixtureError("timed out waiting for \(what)")
            }
            usleep(10_000)
        }
    }
}
