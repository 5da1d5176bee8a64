// SPDX-License-Identifier: MIT
import CliptabClient

/// `cliptab insert TABLE S:R TEXT`: one row at an index path.
struct InsertCommand: CLICommand {
    /// The command's name, help, arguments and options.
    static let spec = CommandSpec(
        "insert", abstract: "insert a row at an index path",
        discussion: """
            The new row gets index path S:R; the row that was there and those after it move
            down. R may be the section's row count, or -1, to append. #ID inserts before that
            row. Prints the new row's id as '#ID' (with --json: {"id": ID}). --name NAME names
            the new row (see 'cliptab name').
            """ + "\n\n" + addressingHelp,
        arguments: [.table, .cell(help: "where the new row goes"), ArgumentSpec("TEXT", help: "its text")],
        options: [.value("--name", "NAME", help: "name the new row")])

    private let table: String
    private let cell: CellAddress
    private let text: String
    private let name: String?

    /// Takes the checked arguments; throws a `UsageError` for one that does not parse.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        table = arguments.argument("TABLE")
        cell = try cellArgument(arguments)
        text = arguments.argument("TEXT")
        name = try rowNameOption(arguments)
    }

    /// Resolves the address, calls `InsertRow` and prints the new id.
    func run(_ context: CommandContext) throws {
        let (section, row) = try context.resolve(cell, in: table)
        if let name { try checkNameFree(name, in: table, context) }
        let id = try context.daemon { try $0.insertRow(TableCell(table, section: section, row: row), text) }
        if let name { try nameNewRow(id, name, in: table, context) }
        if context.options.json {
            try context.output.line(JSON.object([("id", .unsigned(id))]).rendered)
        } else {
            try context.output.line("#\(id)")
        }
    }
}
