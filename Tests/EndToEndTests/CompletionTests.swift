// SPDX-License-Identifier: MIT
import Posix
import TestSupport
import Testing

/// The bash completion script, run by bash against the built binary and a daemon.
@Suite(.serialized, .withDaemon) struct CompletionTests {
    /// What `_cliptab` offers for the command line `words` (the last one is being typed).
    func complete(_ words: [String]) throws -> [String] {
        let script = try cli.run("completion", "bash")
        #expect(script.status == 0)
        let file = cli.data.appending("cliptab.bash")
        let saved = try ChildProcess.run(
            "bash", ["-c", "cat > \"$0\"", file], environment: cli.environment, input: Array(script.out.utf8))
        #expect(saved.termination == .exited(0))
        let quoted = words.map { "'" + $0.replacingOccurrences("'", "'\\''") + "'" }.joined(separator: " ")
        let program = """
            source "$0"
            COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1)
            _cliptab
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        var environment = cli.environment
        environment["PATH"] = BuiltProducts.directory + ":" + (environment["PATH"] ?? "")
        let result = try ChildProcess.run("bash", ["-c", program, file], environment: environment)
        #expect(result.termination == .exited(0) && result.errorText.isEmpty, "\(result.errorText)")
        return result.outputText.split(separator: "\n").map(String.init)
    }

    /// `bash -n` accepts the script, which registers `_cliptab`.
    @Test func scriptIsValidBash() throws {
        let script = try cli.run("completion", "bash")
        let check = try ChildProcess.run(
            "bash", ["-n"], environment: cli.environment, input: Array(script.out.utf8))
        #expect(check.termination == .exited(0) && check.errorText.isEmpty)
        #expect(script.out.hasSuffix("complete -F _cliptab cliptab\n"))
    }

    /// `cliptab __complete`, which the three scripts call, needs the daemon only for names:
    /// without a bus it still answers the words, and no names (nothing on stderr).
    @Test func completeAnswersWithoutADaemon() throws {
        let environment = CLIFixture.environment(bus: nil, home: cli.data.path)
        func complete(_ words: String...) throws -> Outcome {
            try runCliptab(["__complete"] + words, environment: environment)
        }
        #expect(try complete("co") == Outcome(0, "words\ncopy\ncompletion\n"))
        #expect(try complete("--json", "section", "") == Outcome(0, "words\nadd\nrm\nmv\ntitle\n"))
        #expect(try complete("get", "") == Outcome(0, "words\n"))
        #expect(try complete("get", "t", "") == Outcome(0, "words\n"))
        #expect(try complete("export", "t", "-o", "") == Outcome(0, "files\n"))
        #expect(try complete("nonsense", "") == Outcome(0, "words\n"))
    }

    /// Command names, subcommands, options, option values, operators and table names.
    @Test func completesCommandsOptionsAndValues() throws {
        defer { for table in ["snippets", "my table", "numbers"] { _ = try? cli.run("drop", table) } }
        for table in ["snippets", "my table", "numbers"] { #expect(try cli.run("create", table).status == 0) }
        #expect(try complete(["cliptab", "ge"]) == ["get"])
        #expect(
            try complete(["cliptab", "--json", "s"]) == ["show", "set", "section", "status", "sequence"])
        #expect(try complete(["cliptab", "section", ""]) == ["add", "rm", "mv", "title"])
        #expect(try complete(["cliptab", "get", ""]) == ["my\\ table", "numbers", "snippets"])
        #expect(try complete(["cliptab", "--timeout", "2", "copy", "n"]) == ["numbers"])
        #expect(try complete(["cliptab", "get", "snippets", ""]) == [])
        #expect(try complete(["cliptab", "section", "rm", "s"]) == ["snippets"])
        #expect(
            try complete(["cliptab", "export", "numbers", "--format", ""]) == [
                "json", "tsv", "lines", "yaml", "espanso",
            ])
        #expect(
            try complete(["cliptab", "rm-where", "numbers", ""]).prefix(6) == [
                "equals", "contains", "prefix", "suffix", "matches", "\\>",
            ])
        #expect(try complete(["cliptab", "do", "numbers", "c"]) == ["copy", "cut"])
        #expect(
            try complete(["cliptab", "get", "--"]) == [
                "--json", "--timeout", "--notify", "--help", "--version",
            ])
        #expect(try complete(["cliptab", "add", "numbers", "--section", ""]) == [])
        #expect(try complete(["cliptab", "add", "numbers", "--section", "0", "x", "--s"]) == ["--section"])
        #expect(try complete(["cliptab", "help", "com"]) == ["completion"])
        #expect(try complete(["cliptab", "completion", ""]) == ["bash", "zsh", "fish"])
        for (text, name) in [("1", "one"), ("2", "two"), ("3", "three")] {
            #expect(try cli.run("add", "numbers", text, "--name", name).status == 0)
        }
        #expect(try complete(["cliptab", "get", "numbers", "t"]).sorted() == ["three", "two"])
        #expect(try complete(["cliptab", "rm", "numbers", "one", ""]).sorted() == ["one", "three", "two"])
        #expect(try complete(["cliptab", "--json", "copy", "--", "numbers", "o"]) == ["one"])
        #expect(try complete(["cliptab", "get", "nothing-here", ""]) == [])
    }
}

extension String {
    /// This string with every `target` replaced by `replacement` (no Foundation here).
    func replacingOccurrences(_ target: Character, _ replacement: String) -> String {
        var result = ""
        for character in self {
            if character == target { result += replacement } else { result.append(character) }
        }
        return result
    }
}
