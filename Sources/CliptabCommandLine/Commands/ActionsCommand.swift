// SPDX-License-Identifier: MIT
import CliptabClient

/// `cliptab actions TABLE S:R`: the cell's context menu.
struct ActionsCommand: CLICommand {
    /// The command's name, help, arguments and options.
    static let spec = CommandSpec(
        "actions", abstract: "list the cell's context-menu actions, one a line",
        discussion: """
            The actions the table allows, in the order copy cut paste delete move edit insert;
            nothing when it allows none. With --json: an array of strings.
            """ + "\n\n" + addressingHelp,
        arguments: [.table, .cell()])

    private let table: String
    private let cell: CellAddress

    /// Takes the checked arguments; throws a `UsageError` for one that does not parse.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        table = arguments.argument("TABLE")
        cell = try cellArgument(arguments)
    }

    /// Resolves the address, calls `GetActions` and prints the actions.
    func run(_ context: CommandContext) throws {
        let (section, row) = try context.resolve(cell, in: table)
        let actions = try context.daemon { try $0.actions(TableCell(table, section: section, row: row)) }
        if context.options.json {
            try context.output.line(JSON.strings(actions).rendered)
        } else {
            for action in actions { try context.output.line(action) }
        }
    }
}
