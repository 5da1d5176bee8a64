// SPDX-License-Identifier: MIT
import CliptabClient
import CliptabContract

/// `cliptab do TABLE ACTION S:R`: performs a context-menu action.
struct DoCommand: CLICommand {
    /// The command's name, help, arguments and options.
    static let spec = CommandSpec(
        "do", abstract: "perform a context-menu action on a cell",
        discussion: """
            Prints what the action returns exactly, with no newline added: the cell's text for
            copy, cut and delete, the pasted text for paste. move, edit and insert need more
            than a cell: use mv, set and insert.
            """ + "\n\n" + addressingHelp,
        arguments: [
            .table,
            ArgumentSpec(
                "ACTION", help: "the action (\(ContractNames.actions.joined(separator: " ")))",
                completion: .choices(ContractNames.actions)),
            .cell(),
        ])

    private let table: String
    private let action: String
    private let cell: CellAddress

    /// Names the action and the table only, never a cell's text.
    var successNotice: String? { "Did \(action) in \(table)" }

    /// Takes the checked arguments; throws a `UsageError` for one that does not parse.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        table = arguments.argument("TABLE")
        action = arguments.argument("ACTION")
        cell = try cellArgument(arguments)
        guard ContractNames.actions.contains(action) else {
            let names = ContractNames.actions.joined(separator: " ")
            throw arguments.error("ACTION \"\(action)\" is not an action; the actions are \(names)")
        }
    }

    /// Resolves the address, calls `PerformAction` and prints what it returns as it is.
    func run(_ context: CommandContext) throws {
        let (section, row) = try context.resolve(cell, in: table)
        let text = try context.daemon { try $0.perform(action, TableCell(table, section: section, row: row)) }
        try printText(text, context)
    }
}
