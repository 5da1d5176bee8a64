// SPDX-License-Identifier: MIT
import CliptabContract

/// `cliptab import TABLE [FILE|-] [--format F] [--replace]`.
struct ImportCommand: CLICommand {
    /// The command's name, help, arguments and options.
    static let spec = CommandSpec(
        "import", abstract: "read a table in an exchange format from a file or stdin",
        discussion: """
            Reads FILE, or standard input when FILE is - or not given, in one of the formats of
            'cliptab export' (default json), and adds its sections after the table's (creating
            the table if it does not exist), or replaces its content with --replace. All or
            nothing. Prints how many rows were imported (with --json: {"rows": N}).
            """,
        arguments: [
            .table,
            ArgumentSpec(
                "FILE", .optional, help: "the file to read (default -: standard input)", completion: .file),
        ],
        options: [
            .value(
                "--format", "FORMAT", choices: ContractNames.formats,
                help: "the exchange format (default json)"),
            .flag("--replace", help: "drop the table's content first"),
        ])

    private let table: String
    private let file: String?
    private let format: String
    private let replace: Bool

    /// Takes the checked arguments.
    init(_ arguments: ParsedArguments) {
        table = arguments.argument("TABLE")
        file = arguments.optionalArgument("FILE")
        format = arguments.value("--format") ?? "json"
        replace = arguments.flag("--replace")
    }

    /// Reads the file or standard input, then calls `ImportTable` once.
    func run(_ context: CommandContext) throws {
        let source = file == nil || file == "-" ? "standard input" : file!
        let data = try InputReader.text(InputReader.readAll(file), source: source)
        let rows = try context.call(
            "ImportTable", [string(table), string(format), string(data), .boolean(replace)]
        ).uint32(0)
        if context.options.json {
            try context.output.line(JSON.object([("rows", .unsigned(UInt64(rows)))]).rendered)
        } else {
            try context.output.line("imported \(rows) row\(rows == 1 ? "" : "s") into \(table)")
        }
    }
}
