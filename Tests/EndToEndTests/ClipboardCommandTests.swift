// SPDX-License-Identifier: MIT
import Glibc
import Posix
import TestSupport
import Testing

/// `copy`, `cut`, `paste`, `clip` and `status` against a daemon on a real Xvfb, checked with
/// xclip, a clipboard client nobody here wrote.
@Suite(.serialized)
struct ClipboardCommandTests {
    /// Text that must survive byte for byte: tabs, newlines (also trailing), emoji.
    static let awkward = "line one\n\tindented ✓ 🎉\ntrailing newline\n"

    @Test func copyCutPasteClipThroughTheCLI() throws {
        let display = try VirtualDisplay()
        let cli = try CLIFixture(display: display.display)
        #expect(try cli.run("create", "c").status == 0)
        #expect(try cli.run("add", "c", Self.awkward, "second").status == 0)

        // copy prints the text exactly and the clipboard holds exactly it.
        #expect(try cli.run("copy", "c", "0:0") == Outcome(0, Self.awkward))
        let read = try ChildProcess.run(
            "xclip", ["-selection", "clipboard", "-o"], environment: cli.environment,
            timeoutMilliseconds: 20_000)
        #expect(read.outputText == Self.awkward)
        #expect(try cli.run("clip") == Outcome(0, Self.awkward))
        let status = try cli.run("status").out
        #expect(status.contains("copied by cliptabd from row #"), "\(status)")

        // cut prints the text, deletes the row, and the clipboard holds it.
        #expect(try cli.run("cut", "c", "0:1") == Outcome(0, "second"))
        let shown = try cli.run("show", "c").out
        #expect(!shown.contains("second") && shown.contains("0:0"), "\(shown)")

        // paste inserts what another program owns.
        let owner = try ChildProcess.spawn(
            "xclip", ["-selection", "clipboard", "-i", "-quiet"], environment: cli.environment, stdin: .pipe,
            stdout: .null, stderr: .null)
        try owner.write(Array("from xclip\twith tab".utf8))
        owner.closeStandardInput()
        let deadline = MonotonicClock.milliseconds() + 10_000
        while try cli.run("clip").out != "from xclip\twith tab" && MonotonicClock.milliseconds() < deadline {
            usleep(20_000)
        }
        #expect(try cli.run("status").out.contains("owned by another program"))
        #expect(try cli.run("paste", "c", "0:0").status == 0)
        #expect(try cli.run("get", "c", "0:0") == Outcome(0, "from xclip\twith tab"))
        owner.terminate()
    }
}
