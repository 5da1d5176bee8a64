// SPDX-License-Identifier: MIT
import CliptabClient

/// `cliptab set TABLE S:R TEXT`: replaces a cell's text.
struct SetCommand: CLICommand {
    /// The command's name, help, arguments and options.
    static let spec = CommandSpec(
        "set", abstract: "replace a cell's text", discussion: addressingHelp,
        arguments: [.table, .cell(), ArgumentSpec("TEXT", help: "the new text")])

    private let table: String
    private let cell: CellAddress
    private let text: String

    /// Takes the checked arguments; throws a `UsageError` for one that does not parse.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        table = arguments.argument("TABLE")
        cell = try cellArgument(arguments)
        text = arguments.argument("TEXT")
    }

    /// Resolves the address and calls `SetCell`.
    func run(_ context: CommandContext) throws {
        let (section, row) = try context.resolve(cell, in: table)
        try context.daemon { try $0.setCell(TableCell(table, section: section, row: row), text) }
    }
}
