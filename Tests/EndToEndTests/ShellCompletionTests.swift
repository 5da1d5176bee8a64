// SPDX-License-Identifier: MIT
import Posix
import TestSupport
import Testing

/// The zsh and fish completion scripts, run by those shells against the built binary and a
/// daemon: the same answers as the bash script for the same command lines, row names too.
@Suite(.serialized, .withDaemon) struct ShellCompletionTests {
    /// The environment of a shell run: the built `cliptab` first on `PATH`.
    var environment: [String: String] {
        var environment = cli.environment
        environment["PATH"] = BuiltProducts.directory + ":" + (environment["PATH"] ?? "")
        return environment
    }

    /// Writes `cliptab completion SHELL` to `path`.
    func save(_ shell: String, to path: String) throws {
        let script = try cli.run("completion", shell)
        #expect(script.status == 0 && script.err.isEmpty)
        let saved = try ChildProcess.run(
            "sh", ["-c", "mkdir -p \"$(dirname \"$0\")\" && cat > \"$0\"", path], environment: environment,
            input: Array(script.out.utf8))
        #expect(saved.termination == .exited(0))
    }

    /// `text` in single quotes for a POSIX shell, zsh or fish.
    func quoted(_ text: String) -> String { "'" + text.replacingOccurrences("'", "'\\''") + "'" }

    /// What zsh's `_cliptab` offers for `words` (the last one being typed), loaded by
    /// `compinit` from `$fpath`; `compadd` is replaced by a function that prints what it is
    /// given, and the offers are filtered by the typed prefix as zsh would.
    func zsh(_ words: [String]) throws -> [String] {
        let directory = cli.data.appending("zfunc")
        try save("zsh", to: directory + "/_cliptab")
        let program = """
            fpath=("$1" $fpath)
            autoload -U compinit && compinit -u -d "$1/.zcompdump"
            [[ $_comps[cliptab] == _cliptab ]] || { print -u2 "compinit did not register _cliptab"; exit 3; }
            compadd() {
                local array=0
                while (( $# )); do
                    case $1 in
                        -a) array=1; shift ;;
                        --) shift; break ;;
                        -*) shift ;;
                        *) break ;;
                    esac
                done
                if (( array )); then local name; for name; do print -rl -- "${(@P)name}"; done
                else print -rl -- "$@"; fi
            }
            _files() { print -r -- '<files>'; }
            words=(\(words.map(quoted).joined(separator: " "))); CURRENT=\(words.count)
            _cliptab
            """
        let result = try ChildProcess.run(
            "zsh", ["-f", "-c", program, "zsh", directory], environment: environment)
        #expect(result.termination == .exited(0) && result.errorText.isEmpty, "\(result.errorText)")
        let typed = words.last ?? ""
        return result.outputText.split(separator: "\n").map(String.init).filter { $0.hasPrefix(typed) }
    }

    /// What fish offers for the command line `line`, asked with `complete -C` after loading
    /// the script as fish loads a completion file.
    func fish(_ line: String) throws -> [String] {
        let file = cli.data.appending("fish/cliptab.fish")
        try save("fish", to: file)
        var environment = environment
        environment["XDG_CONFIG_HOME"] = cli.data.appending("fish-config")
        environment["XDG_DATA_HOME"] = cli.data.appending("fish-data")
        let result = try ChildProcess.run(
            "fish", ["--no-config", "-c", "source $argv[1]; complete -C $argv[2]", file, line],
            environment: environment)
        #expect(result.termination == .exited(0) && result.errorText.isEmpty, "\(result.errorText)")
        return result.outputText.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
    }

    /// Command names, subcommands, options, option values and table names in zsh.
    @Test func zshCompletes() throws {
        defer { for table in ["snippets", "my table", "numbers"] { _ = try? cli.run("drop", table) } }
        for table in ["snippets", "my table", "numbers"] { #expect(try cli.run("create", table).status == 0) }
        #expect(try zsh(["cliptab", "co"]) == ["copy", "completion"])
        #expect(try zsh(["cliptab", "--json", "s"]) == ["show", "set", "section", "status", "sequence"])
        #expect(try zsh(["cliptab", "section", ""]) == ["add", "rm", "mv", "title"])
        #expect(try zsh(["cliptab", "get", ""]) == ["my table", "numbers", "snippets"])
        #expect(try zsh(["cliptab", "--timeout", "2", "copy", "n"]) == ["numbers"])
        #expect(try zsh(["cliptab", "get", "snippets", ""]) == [])
        #expect(
            try zsh(["cliptab", "export", "numbers", "--format", ""]) == [
                "json", "tsv", "lines", "yaml", "espanso",
            ])
        #expect(try zsh(["cliptab", "export", "numbers", "-o", ""]) == ["<files>"])
        #expect(try zsh(["cliptab", "do", "numbers", "c"]) == ["copy", "cut"])
        #expect(
            try zsh(["cliptab", "get", "--"]) == ["--json", "--timeout", "--notify", "--help", "--version"])
        #expect(try zsh(["cliptab", "add", "numbers", "--section", "0", "x", "--s"]) == ["--section"])
        #expect(try zsh(["cliptab", "completion", ""]) == ["bash", "zsh", "fish"])
        try addNamedRows()
        #expect(try zsh(["cliptab", "get", "numbers", "t"]).sorted() == ["three", "two"])
        #expect(try zsh(["cliptab", "rm", "numbers", "one", ""]).sorted() == ["one", "three", "two"])
        #expect(try zsh(["cliptab", "--json", "copy", "--", "numbers", "o"]) == ["one"])
        #expect(try zsh(["cliptab", "get", "nothing-here", ""]) == [])
    }

    /// Rows named one, two and three in the table `numbers`.
    func addNamedRows() throws {
        for (text, name) in [("1", "one"), ("2", "two"), ("3", "three")] {
            let added = try cli.run("add", "numbers", text, "--name", name)
            #expect(added.status == 0, "\(added)")
        }
    }

    /// The same in fish, through `complete -C` (fish sorts and filters the offers itself).
    @Test func fishCompletes() throws {
        defer { for table in ["snippets", "my table", "numbers"] { _ = try? cli.run("drop", table) } }
        for table in ["snippets", "my table", "numbers"] { #expect(try cli.run("create", table).status == 0) }
        #expect(try fish("cliptab co").sorted() == ["completion", "copy"])
        #expect(try fish("cliptab --json s").sorted() == ["section", "sequence", "set", "show", "status"])
        #expect(try fish("cliptab section ").sorted() == ["add", "mv", "rm", "title"])
        #expect(try fish("cliptab get ").sorted() == ["my table", "numbers", "snippets"])
        #expect(try fish("cliptab --timeout 2 copy n") == ["numbers"])
        #expect(try fish("cliptab get snippets ") == [])
        #expect(
            try fish("cliptab export numbers --format ").sorted() == [
                "espanso", "json", "lines", "tsv", "yaml",
            ])
        #expect(try fish("cliptab do numbers c").sorted() == ["copy", "cut"])
        #expect(
            try fish("cliptab get --").sorted() == ["--help", "--json", "--notify", "--timeout", "--version"])
        #expect(try fish("cliptab add numbers --section 0 x --s") == ["--section"])
        #expect(try fish("cliptab completion ").sorted() == ["bash", "fish", "zsh"])
        try addNamedRows()
        #expect(try fish("cliptab get numbers t").sorted() == ["three", "two"])
        #expect(try fish("cliptab rm numbers one ").sorted() == ["one", "three", "two"])
        #expect(try fish("cliptab --json copy -- numbers o") == ["one"])
        #expect(try fish("cliptab get nothing-here ") == [])
    }
}
