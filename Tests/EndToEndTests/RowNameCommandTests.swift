// SPDX-License-Identifier: MIT
import CliptabClient
import Glibc
import Posix
import TestSupport
import Testing

/// Row names, `id:N`, quiet copies and one-row files from the user's seat: the built `cliptab`
/// run by `sh -c` as a shortcut launcher runs it, the clipboard read back with xclip on Xvfb.
@Suite(.serialized)
struct RowNameCommandTests {
    /// Runs `command` through `sh -c` with the built `cliptab` first on PATH.
    static func shell(_ cli: CLIFixture, _ command: String) throws -> Outcome {
        var environment = cli.environment
        environment["PATH"] = BuiltProducts.directory + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        return Outcome(
            try ChildProcess.run(
                "/bin/sh", ["-c", command], environment: environment, timeoutMilliseconds: 20_000))
    }

    /// The CLIPBOARD's text as xclip reads it.
    static func clipboard(_ cli: CLIFixture) throws -> String {
        try ChildProcess.run(
            "xclip", ["-selection", "clipboard", "-o"], environment: cli.environment,
            timeoutMilliseconds: 20_000
        ).outputText
    }

    @Test func aNamedRowIsCopiedByNameWhereverItMoves() throws {
        let display = try VirtualDisplay()
        let cli = try CLIFixture(display: display.display)
        #expect(try cli.run("create", "snippets").status == 0)
        #expect(try cli.run("add", "snippets", "hello", "Kind regards,\nAda\n", "bye").status == 0)
        #expect(try cli.run("section", "add", "snippets", "--header", "Mail").status == 0)
        #expect(try cli.run("name", "snippets", "0:1", "sig") == Outcome(0, ""))

        // Show tells the name, and with --ids the id too.
        let shown = try cli.run("show", "snippets", "--ids").out
        #expect(shown.contains("[sig] Kind regards,"), "\(shown)")
        #expect(shown.contains("#2 [sig]"), "\(shown)")

        // The row moves to the other section, that section moves to the front, rows are
        // inserted before it: the name still finds it.
        #expect(try cli.run("mv", "snippets", "sig", "1:0").status == 0)
        #expect(try cli.run("section", "mv", "snippets", "1", "0").status == 0)
        #expect(try cli.run("insert", "snippets", "0:0", "first").status == 0)
        #expect(try cli.run("get", "snippets", "sig") == Outcome(0, "Kind regards,\nAda\n"))

        // As a shortcut runs it: sh -c, quiet, and by id with id:N (a '#' would be a comment).
        #expect(try Self.shell(cli, "cliptab copy snippets sig") == Outcome(0, "Kind regards,\nAda\n"))
        #expect(try Self.clipboard(cli) == "Kind regards,\nAda\n")
        #expect(try Self.shell(cli, "cliptab copy -q snippets id:1") == Outcome(0, ""))
        #expect(try Self.clipboard(cli) == "hello")
        #expect(try Self.shell(cli, "cliptab copy --quiet snippets sig") == Outcome(0, ""))
        #expect(try Self.clipboard(cli) == "Kind regards,\nAda\n")

        // A name in use elsewhere is refused; --clear frees it; a bad name is a usage error.
        let taken = try cli.run("name", "snippets", "id:1", "sig")
        #expect(taken.status == 1 && taken.err.contains("NameInUse"), "\(taken)")
        #expect(try cli.run("name", "snippets", "id:1", "9lives").status == 2)
        #expect(try cli.run("name", "snippets", "sig", "--clear").status == 0)
        let gone = try cli.run("copy", "snippets", "sig")
        #expect(gone.status == 1 && gone.err.contains("NoSuchRow"), "\(gone)")

        // --name on add names the one new row; several rows with --name are refused.
        #expect(try cli.run("add", "snippets", "--name", "addr", "1 Main St").status == 0)
        #expect(try cli.run("get", "snippets", "addr") == Outcome(0, "1 Main St"))
        #expect(try cli.run("add", "snippets", "--name", "two", "a", "b").status == 2)
        let again = try cli.run("insert", "snippets", "0:0", "x", "--name", "addr")
        #expect(again.status == 1 && again.err.contains("NameInUse"), "\(again)")
        #expect(!(try cli.run("show", "snippets").out.contains("  x")))

        // Cutting a named row takes the name with it.
        #expect(try cli.run("cut", "-q", "snippets", "addr") == Outcome(0, ""))
        #expect(try cli.run("get", "snippets", "addr").status == 1)
    }

    @Test func aSecretTableIsNeverPrinted() throws {
        let display = try VirtualDisplay()
        let cli = try CLIFixture(display: display.display)
        #expect(try cli.run("create", "vault").status == 0)
        #expect(try cli.run("add", "vault", "--name", "pw", "hunter2").status == 0)
        try cli.cliptab.setSecret("vault", true)
        #expect(try Self.shell(cli, "cliptab copy vault pw") == Outcome(0, ""))
        #expect(try Self.clipboard(cli) == "hunter2")
        #expect(try cli.run("--json", "copy", "vault", "pw") == Outcome(0, ""))
        #expect(try cli.run("cut", "vault", "pw") == Outcome(0, ""))
        #expect(try Self.clipboard(cli) == "hunter2")
    }

    @Test func aFileOrStandardInputBecomesOneRowExactly() throws {
        let cli = try CLIFixture()
        let directory = try TemporaryDirectory(prefix: "cliptab-file-row")
        let text = "#!/bin/sh\n\necho 'two\tfields'\n\n"
        let file = directory.appending("snippet.sh")
        let descriptor = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        #expect(descriptor >= 0)
        #expect(Glibc.write(descriptor, text, text.utf8.count) == text.utf8.count)
        close(descriptor)
        #expect(try cli.run("create", "t").status == 0)
        #expect(try cli.run("add", "t", "--file", file, "--name", "script").status == 0)
        #expect(try cli.run("get", "t", "script") == Outcome(0, text))
        #expect(try cli.run("add", "t", "--file", "-", input: "a\nb\n").status == 0)
        #expect(try cli.run("get", "t", "0:1") == Outcome(0, "a\nb\n"))
        #expect(try cli.run("add", "t", "--file", file, "more").status == 2)
        #expect(try cli.run("add", "t").status == 2)
    }

    @Test func bashCompletionOffersRowNames() throws {
        let cli = try CLIFixture()
        #expect(try cli.run("create", "snippets").status == 0)
        #expect(try cli.run("add", "snippets", "a", "b", "c").status == 0)
        #expect(try cli.run("name", "snippets", "0:2", "sig").status == 0)
        #expect(try cli.run("name", "snippets", "0:0", "addr").status == 0)
        #expect(try cli.run("name", "snippets", "0:1", "signature").status == 0)
        #expect(try cli.run("name", "snippets", "--list") == Outcome(0, "addr\nsignature\nsig\n"))
        let script = try cli.run("completion", "bash")
        let file = cli.data.appending("cliptab.bash")
        let saved = try ChildProcess.run(
            "bash", ["-c", "cat > \"$0\"", file], environment: cli.environment, input: Array(script.out.utf8))
        #expect(saved.termination == .exited(0))
        var environment = cli.environment
        environment["PATH"] = BuiltProducts.directory + ":" + (environment["PATH"] ?? "")
        func complete(_ words: String, _ count: Int) throws -> [String] {
            let program = """
                source "$0"
                COMP_WORDS=(\(words)); COMP_CWORD=\(count - 1)
                _cliptab
                printf '%s\\n' "${COMPREPLY[@]}"
                """
            let result = try ChildProcess.run("bash", ["-c", program, file], environment: environment)
            #expect(result.termination == .exited(0) && result.errorText.isEmpty, "\(result.errorText)")
            return result.outputText.split(separator: "\n").map(String.init)
        }
        #expect(try complete("cliptab copy snippets si", 4) == ["signature", "sig"])
        #expect(try complete("cliptab --json get snippets ''", 5) == ["addr", "signature", "sig"])
        #expect(try complete("cliptab mv snippets sig a", 5) == ["addr"])
        #expect(try complete("cliptab copy missing ''", 4) == [])
    }
}
