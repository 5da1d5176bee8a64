// SPDX-License-Identifier: MIT
import CliptabCore
import Posix
import TestSupport
import Testing

@testable import CliptabCommandLine

/// The command line alone: help, version and usage errors.
///
/// No daemon runs; the bus address leads nowhere, so a command that tried to connect would
/// exit 69, not 0 or 2.
@Suite struct ParsingTests {
    let environment = CLIFixture.environment(bus: "unix:abstract=/cliptab-e2e-no-bus", home: "/nonexistent")

    /// Runs `cliptab` without a bus.
    func run(_ arguments: String...) throws -> Outcome {
        try runCliptab(arguments, environment: environment)
    }

    /// `--version` prints the client's version, wherever it is given.
    @Test func version() throws {
        #expect(try run("--version") == Outcome(0, "cliptab 0.1.0\n"))
        #expect(try run("get", "--version") == Outcome(0, "cliptab 0.1.0\n"))
    }

    /// `--help`, `help` and `COMMAND --help` print the same pages, on stdout, with status 0.
    @Test func helpIsTheSameEverywhere() throws {
        let general = try run("--help")
        #expect(general.status == 0 && general.err.isEmpty)
        #expect(try run("help") == general)
        #expect(try run("-h") == general)
        let get = try run("help", "get")
        #expect(get.status == 0 && get.err.isEmpty)
        #expect(try run("get", "--help") == get)
        #expect(try run("get", "-h") == get)
        #expect(try run("--json", "get", "x", "--help") == get)
        // --help wins over a command line that is otherwise wrong.
        #expect(try run("get", "x", "not-a-path", "extra", "--help") == get)
        let sectionAdd = try run("help", "section", "add")
        #expect(try run("section", "add", "--help") == sectionAdd)
        #expect(try run("section", "--help") == run("help", "section"))
    }

    /// A command's page, exactly: usage, abstract, arguments, discussion, global options.
    @Test func commandHelpPage() throws {
        let expected = """
            usage: cliptab get TABLE S:R

            Print one cell's text exactly, with no newline added.

            arguments:
              TABLE   the table's name
              S:R     the row (S:R, R, @HEADER:R, #ID, id:ID or a row name)

            The text is written as stored (newlines and tabs included), so it composes in pipes.

            Addressing: S:R is section S, row R; a bare R is row R of section 0. Negative numbers
            count from the end (-1:-1 is the last row of the last section). @HEADER:R names the
            section by its header title (the first section with that header; the row number follows
            the last colon). #ID (or id:ID, which survives sh -c) names a row by its stable id, and
            a row name (cliptab name) names the row that has it, wherever it is now.

            Global options: --json, --timeout SECONDS, --notify[=WHEN], -h/--help, --version (see 'cliptab --help').

            """
        #expect(try run("help", "get") == Outcome(0, expected))
        let add = try run("help", "add").out
        #expect(
            add.hasPrefix("usage: cliptab add TABLE [TEXT...] [--section S] [--file FILE] [--name NAME]\n"))
        #expect(
            add.contains(
                "\noptions:\n  --section S   the section to append to (an index or @HEADER; default 0)\n"))
    }

    /// The general help lists every command of the contract, and the group's page its four.
    @Test func generalHelpListsEveryCommand() throws {
        let help = try run("--help").out
        let commands = [
            "tables", "create", "drop", "rename", "show", "get", "add", "insert", "set", "rm", "rm-where",
            "mv",
            "section add", "section rm", "section mv", "section title", "actions", "do", "copy", "cut",
            "paste",
            "clip", "export", "import", "watch", "status", "reload", "menu", "pick", "help", "completion",
        ]
        for command in commands {
            #expect(help.contains("\n  \(command)  "), "the help does not list \(command)")
            // The parser finds commands by name without building every declaration; the
            // page it finds must be the one declared under that name.
            let page = try run("help", command)
            #expect(page.status == 0 && page.out.hasPrefix("usage: cliptab \(command)"), "\(command)")
        }
        #expect(
            help.hasPrefix(
                "usage: cliptab [--json] [--timeout SECONDS] [--notify[=WHEN]] COMMAND [ARGUMENT...]\n"))
        let section = try run("help", "section").out
        #expect(
            section.hasPrefix(
                "usage: cliptab section COMMAND ...\n\nAdd, delete, move and retitle sections.\n"))
    }

    /// The names the CLI checks before calling are the model's: operators, actions, formats.
    @Test func contractNamesMatchTheModel() throws {
        #expect(
            try run("help", "rm-where").out.contains("(\(RowPredicate.operators.joined(separator: " ")))"))
        #expect(
            try run("help", "do").out.contains(
                "(\(TableAction.allCases.map(\.rawValue).joined(separator: " ")))"))
        let formats = ExchangeFormat.allCases.map(\.rawValue).joined(separator: "|")
        // Export also writes another tool's format (espanso), which is no exchange format.
        #expect(try run("help", "export").out.contains("[--format \(formats)|espanso]"))
        #expect(try run("help", "import").out.contains("[--format \(formats)]"))
    }

    /// Every usage error names what is wrong, prints the usage line, and exits 2.
    @Test(
        arguments: [
            (
                [], "missing command",
                "cliptab [--json] [--timeout SECONDS] [--notify[=WHEN]] COMMAND [ARGUMENT...]",
                "cliptab --help"
            ),
            (["sho", "t"], "unknown command \"sho\"; did you mean 'show'?", globalUsage, "cliptab --help"),
            (["--bogus", "tables"], "unknown option --bogus", globalUsage, "cliptab --help"),
            (["get", "t"], "missing argument S:R", "cliptab get TABLE S:R", "cliptab help get"),
            (
                ["get", "t", "1:x"],
                "S:R \"1:x\" is not an index path: give S:R, R (in section 0), @HEADER:R, #ID, id:ID or a row name (negative numbers "
                    + "count from the end)", "cliptab get TABLE S:R", "cliptab help get"
            ),
            (
                ["rm", "t", "0:0", "#x"],
                "S:R \"#x\" is not an index path: give S:R, R (in section 0), @HEADER:R, #ID, id:ID or a row name (negative numbers "
                    + "count from the end)", "cliptab rm TABLE S:R...", "cliptab help rm"
            ),
            (
                ["get", "t", "0:0", "extra"], "unexpected argument \"extra\"", "cliptab get TABLE S:R",
                "cliptab help get"
            ),
            (
                ["tables", "--bogus"], "unknown option --bogus for 'tables'", "cliptab tables",
                "cliptab help tables"
            ),
            (["tables", "--json=yes"], "--json takes no value", "cliptab tables", "cliptab help tables"),
            (
                ["--timeout", "0", "tables"],
                "--timeout takes a number of seconds greater than 0 (such as 5 or 0.5), not \"0\"",
                globalUsage,
                "cliptab --help"
            ),
            (
                ["tables", "--timeout"], "--timeout needs a value (SECONDS)", "cliptab tables",
                "cliptab help tables"
            ),
            (
                ["export", "t", "--format", "xml"],
                "--format takes one of json, tsv, lines, yaml, espanso, not \"xml\"",
                "cliptab export TABLE [--format json|tsv|lines|yaml|espanso] [--output FILE]",
                "cliptab help export"
            ),
            (
                ["import", "t", "--replace", "--replace"], "--replace is given more than once",
                "cliptab import TABLE [FILE] [--format json|tsv|lines|yaml] [--replace]"
                    + " [--from espanso|alfred|raycast|folder] [--dry-run]",
                "cliptab help import"
            ),
            (
                ["rm-where", "t", "like", "x"],
                "OP \"like\" is not an operator; the operators are equals contains prefix suffix matches > >= < <= == !=",
                "cliptab rm-where TABLE OP OPERAND [--dry-run]", "cliptab help rm-where"
            ),
            (
                ["do", "t", "paste2", "0:0"],
                "ACTION \"paste2\" is not an action; the actions are copy cut paste delete move edit insert",
                "cliptab do TABLE ACTION S:R", "cliptab help do"
            ),
            (
                ["section", "title", "t", "0"], "give --header H, --footer F or both",
                "cliptab section title TABLE S [--header H] [--footer F]", "cliptab help section title"
            ),
            (
                ["section", "rm", "t", "x"],
                "S \"x\" is not a section: give an integer (negative counts from the end) or @HEADER",
                "cliptab section rm TABLE S...", "cliptab help section rm"
            ),
            (
                ["section", "add", "t", "--at", "end"], "--at takes an integer (-1 appends), not \"end\"",
                "cliptab section add TABLE [--at N] [--header H] [--footer F]", "cliptab help section add"
            ),
            (
                ["add", "t", "-", "-"], "- (standard input) can be given only once",
                "cliptab add TABLE [TEXT...] [--section S] [--file FILE] [--name NAME]", "cliptab help add"
            ),
            (
                ["add", "t", "-x"], "unknown option -x for 'add'",
                "cliptab add TABLE [TEXT...] [--section S] [--file FILE] [--name NAME]",
                "cliptab help add"
            ),
            (
                ["add", "t", "x", "--section"], "--section needs a value (S)",
                "cliptab add TABLE [TEXT...] [--section S] [--file FILE] [--name NAME]",
                "cliptab help add"
            ),
            (["set", "t", "0:0"], "missing argument TEXT", "cliptab set TABLE S:R TEXT", "cliptab help set"),
            (
                ["help", "nothing"], "COMMAND \"nothing\" is not a cliptab command",
                "cliptab help [COMMAND...]", "cliptab help help"
            ),
            (
                ["completion", "tcsh"], "SHELL \"tcsh\" is not supported; bash, zsh and fish are",
                "cliptab completion SHELL",
                "cliptab help completion"
            ),
            (
                ["section"], "'section' needs a command: add, rm, mv, title", "cliptab section COMMAND ...",
                "cliptab help section"
            ),
            (
                ["section", "swap"], "unknown command \"section swap\"", "cliptab section COMMAND ...",
                "cliptab help section"
            ),
            (
                ["menu", "a", "b"], "unexpected argument \"b\"", "cliptab menu [TABLE] [--filter TEXT]",
                "cliptab help menu"
            ),
            (
                ["copy", "t", "0", "--count", "2"], "--count needs --sequence",
                "cliptab copy TABLE S:R [--paste] [--quiet] [--raw] [--sequence] [--count N] [--set LABEL=VALUE]",
                "cliptab help copy"
            ),
            (
                ["copy", "t", "0", "--sequence", "--paste"],
                "--sequence takes neither --paste, --raw nor --set",
                "cliptab copy TABLE S:R [--paste] [--quiet] [--raw] [--sequence] [--count N] [--set LABEL=VALUE]",
                "cliptab help copy"
            ),
            (
                ["copy", "t", "0", "--sequence", "--count", "0"],
                "--count \"0\" is not a number of rows from 1",
                "cliptab copy TABLE S:R [--paste] [--quiet] [--raw] [--sequence] [--count N] [--set LABEL=VALUE]",
                "cliptab help copy"
            ),
            (
                ["sequence", "x"], "unexpected argument \"x\"", "cliptab sequence [--stop]",
                "cliptab help sequence"
            ),
        ] as [([String], String, String, String)])
    func usageError(arguments: [String], message: String, usage: String, hint: String) throws {
        // The parser in this process: the binary's part is the same for every error.
        guard case .usageError(let error) = CommandList.parser.parse(arguments) else {
            Issue.record("\(arguments) parsed")
            return
        }
        #expect(error.report == "cliptab: \(message)\nusage: \(usage)\nSee '\(hint)'.\n")
    }

    /// The binary prints a usage error on standard error alone, and exits 2.
    @Test func usageErrorOfTheBinary() throws {
        let outcome = try run("get", "t")
        #expect(
            outcome
                == Outcome(
                    2, "",
                    "cliptab: missing argument S:R\nusage: cliptab get TABLE S:R\nSee 'cliptab help get'.\n"))
    }

    /// Words that look like negative numbers are arguments; after `--` everything is.
    @Test(arguments: [
        ["get", "t", "-1:-1"], ["get", "t", "-2"], ["rm-where", "t", "<", "-2.5"],
        ["add", "t", "--", "-x", "--json"],
        ["section", "title", "t", "0", "--header", "--json"],
    ])
    func negativeNumbersAndDoubleDash(arguments: [String]) throws {
        guard case .run = CommandList.parser.parse(arguments) else {
            Issue.record("\(arguments) did not parse")
            return
        }
    }

    /// A command line that parses runs its command: without a bus, that fails to connect (69).
    @Test func parsedCommandRuns() throws {
        #expect(try run("get", "t", "-1:-1").status == 69)
    }

    /// argv is bytes: an argument that is not UTF-8 is refused, never stored repaired.
    @Test func argumentThatIsNotUTF8() throws {
        let outcome = try Outcome(
            ChildProcess.run(
                "bash", ["-c", #"exec "$0" add t "$(printf 'a\377')""#, cliptabPath], environment: environment
            ))
        #expect(
            outcome
                == Outcome(
                    2, "",
                    "cliptab: argument 3 is not valid UTF-8\nusage: \(globalUsage)\nSee 'cliptab --help'.\n"))
    }
}

/// The usage line of the whole command line.
let globalUsage = "cliptab [--json] [--timeout SECONDS] [--notify[=WHEN]] COMMAND [ARGUMENT...]"
