// SPDX-License-Identifier: MIT

/// `cliptab add TABLE [--section S] TEXT...`: appends rows in one call.
struct AddCommand: CLICommand {
    /// The command's name, help, arguments and options.
    static let spec = CommandSpec(
        "add", abstract: "append rows to a section (- reads one row per line from stdin)",
        discussion: """
            Every TEXT becomes one row, in order, at the end of the section (section 0 unless
            --section says otherwise); all are added together or none. A TEXT of - is replaced
            by the lines of standard input (split at newlines, nothing else changed; a last
            newline does not make an empty row). Prints the new rows' ids, one '#ID' a line
            (with --json: an array of numbers). A text that starts with '-' needs '--' before it.
            """,
        arguments: [
            .table, ArgumentSpec("TEXT", .oneOrMore, help: "the rows' texts, or - for standard input"),
        ],
        options: [.value("--section", "S", help: "the section to append to (an index or @HEADER; default 0)")]
    )

    private let table: String
    private let section: SectionAddress
    private let texts: [String]

    /// Takes the checked arguments; throws a `UsageError` for one that does not parse.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        table = arguments.argument("TABLE")
        texts = arguments.arguments("TEXT")
        if let word = arguments.value("--section") {
            section = try SectionAddress.parse(word, argument: "--section", command: arguments.spec)
        } else {
            section = .index(0)
        }
        if texts.filter({ $0 == "-" }).count > 1 {
            throw arguments.error("- (standard input) can be given only once")
        }
    }

    /// Reads standard input if asked, then calls `InsertRows` once and prints the new ids.
    func run(_ context: CommandContext) throws {
        // Standard input is read before the daemon is called, so that the timeout only
        // counts time spent waiting for it.
        var rows: [String] = []
        for text in texts {
            if text == "-" {
                rows += try InputReader.lines(InputReader.readAll(nil), source: "standard input")
            } else {
                rows.append(text)
            }
        }
        let index = try context.resolve(section, in: table)
        let ids = try context.call(
            "InsertRows",
            [string(table), int32(index), int32(-1), .array(elementSignature: "s", rows.map { .string($0) })]
        ).uint64s(0)
        if context.options.json {
            try context.output.line(JSON.array(ids.map { .unsigned($0) }).rendered)
        } else {
            for id in ids { try context.output.line("#\(id)") }
        }
    }
}
