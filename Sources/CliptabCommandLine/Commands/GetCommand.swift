// SPDX-License-Identifier: MIT
import CliptabClient

/// `cliptab get TABLE S:R`: one cell's text, byte for byte.
struct GetCommand: CLICommand {
    /// The command's name, help, arguments and options.
    static let spec = CommandSpec(
        "get", abstract: "print one cell's text exactly, with no newline added",
        discussion: "The text is written as stored (newlines and tabs included), so it composes in pipes.\n\n"
            + addressingHelp,
        arguments: [.table, .cell()])

    private let table: String
    private let cell: CellAddress

    /// Takes the checked arguments; throws a `UsageError` for one that does not parse.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        table = arguments.argument("TABLE")
        cell = try cellArgument(arguments)
    }

    /// Resolves the address, calls `GetCell` and prints the text as it is.
    func run(_ context: CommandContext) throws {
        let (section, row) = try context.resolve(cell, in: table)
        try printText(
            try context.daemon { try $0.cell(TableCell(table, section: section, row: row)) }, context)
    }
}
