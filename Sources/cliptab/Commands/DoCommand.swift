// SPDX-License-Identifier: MIT
import CliptabCore

/// `cliptab do TABLE ACTION S:R`: performs a context-menu action.
struct DoCommand: CLICommand {
    static let spec = CommandSpec(
        "do", abstract: "perform a context-menu action on a cell",
        discussion: """
            Prints what the action returns exactly, with no newline added: the text for copy
            and cut (as 'cliptab copy' does), the pasted text for paste, nothing for delete.
            move, edit and insert need more than a cell: use mv, set and insert.
            """ + "\n\n" + addressingHelp,
        arguments: [
            .table,
            ArgumentSpec(
                "ACTION", help: "the action (\(TableAction.allCases.map(\.rawValue).joined(separator: " ")))",
                completion: .choices(TableAction.allCases.map(\.rawValue))),
            .cell(),
        ])

    let table: String
    let action: String
    let cell: CellAddress

    init(_ arguments: ParsedArguments) throws(UsageError) {
        table = arguments.argument("TABLE")
        action = arguments.argument("ACTION")
        cell = try cellArgument(arguments)
        guard TableAction(rawValue: action) != nil else {
            let names = TableAction.allCases.map(\.rawValue).joined(separator: " ")
            throw arguments.error("ACTION \"\(action)\" is not an action; the actions are \(names)")
        }
    }

    func run(_ context: CommandContext) throws {
        let (section, row) = try context.resolve(cell, in: table)
        let text = try context.call(
            "PerformAction", [string(table), string(action), int32(section), int32(row)]
        ).string(0)
        try printText(text, context)
    }
}
