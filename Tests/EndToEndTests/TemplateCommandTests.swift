// SPDX-License-Identifier: MIT
import CliptabClient
import DBus
import Posix
import TestSupport
import Testing

/// `cliptab copy` of a templates table's row on Xvfb: filled in, with `--set` values, asked
/// on a terminal (through `script`, which gives the command a pseudo-terminal), refused
/// naming the labels where nothing can ask, and `--raw` for the stored text.
@Suite(.serialized)
struct TemplateCommandTests {
    @Test func copyFillsInAsksAndCopiesRaw() throws {
        let display = try VirtualDisplay()
        let cli = try CLIFixture(display: display.display)
        #expect(try cli.run("create", "t").status == 0)
        #expect(try cli.run("add", "t", "Hi {input:Name=friend}, {input:Day}{{!}}").status == 0)
        try cli.cliptab.setTemplates("t", true)
        func clipboard() throws -> String {
            try ChildProcess.run(
                "xclip", ["-selection", "clipboard", "-o"], environment: cli.environment,
                timeoutMilliseconds: 20_000
            ).outputText
        }

        #expect(try cli.run("copy", "t", "0:0", "--set", "Day=Monday") == Outcome(0, "Hi friend, Monday{!}"))
        #expect(try clipboard() == "Hi friend, Monday{!}")
        #expect(
            try cli.run("copy", "t", "0:0", "--set", "Name=Ann", "--set", "Day=a=b")
                == Outcome(0, "Hi Ann, a=b{!}"))
        #expect(
            try cli.run("copy", "t", "0:0", "--raw") == Outcome(0, "Hi {input:Name=friend}, {input:Day}{{!}}")
        )
        #expect(try clipboard() == "Hi {input:Name=friend}, {input:Day}{{!}}")

        // No terminal to ask on: the daemon's refusal, naming the label, and nothing copied.
        let refused = try cli.run("copy", "t", "0:0")
        #expect(refused.status == 1)
        #expect(refused.err.contains("InputRequired") && refused.err.contains("\"Day\""), "\(refused.err)")
        #expect(try clipboard() == "Hi {input:Name=friend}, {input:Day}{{!}}")
        #expect(try cli.run("copy", "t", "0:0", "--set", "Day").status == 2)
        #expect(try cli.run("copy", "t", "0:0", "--raw", "--paste").status == 2)

        // On a terminal the missing labels are asked, with the default offered.
        let command = ([BuiltProducts.path(of: "cliptab"), "copy", "t", "0:0"]).joined(separator: " ")
        let asked = try ChildProcess.run(
            "script", ["-qec", command, "/dev/null"], environment: cli.environment,
            input: Array("\nFriday\n".utf8),
            timeoutMilliseconds: 20_000)
        #expect(asked.termination == .exited(0), "\(asked.outputText) \(asked.errorText)")
        #expect(asked.outputText.contains("Name [friend]: "), "\(asked.outputText)")
        #expect(asked.outputText.contains("Day: "), "\(asked.outputText)")
        #expect(try clipboard() == "Hi friend, Friday{!}")
    }
}
