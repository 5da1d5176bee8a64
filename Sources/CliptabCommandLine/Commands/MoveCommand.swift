// SPDX-License-Identifier: MIT
import CliptabClient

/// `cliptab mv TABLE FROM TO`: moves a row.
struct MoveCommand: CLICommand {
    /// The command's name, help, arguments and options.
    static let spec = CommandSpec(
        "mv", abstract: "move a row (within or across sections)",
        discussion: """
            The row at FROM is taken out, then put back so that its index path is TO (as
            UIKit's moveRowAtIndexPath:toIndexPath:). In [C1 C2 C3], 'mv T 0:0 0:1' gives
            [C2 C1 C3]; TO's row may be the destination's row count after the removal (append).
            """ + "\n\n" + addressingHelp,
        arguments: [
            .table, .cell("FROM", help: "the row to move"), .cell("TO", help: "its index path afterwards"),
        ])

    private let table: String
    private let from: CellAddress
    private let to: CellAddress

    /// Takes the checked arguments; throws a `UsageError` for one that does not parse.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        table = arguments.argument("TABLE")
        from = try cellArgument(arguments, "FROM")
        to = try cellArgument(arguments, "TO")
    }

    /// Resolves both addresses and calls `MoveRow`.
    func run(_ context: CommandContext) throws {
        let source = try context.resolve(from, in: table)
        let destination = try context.resolve(to, in: table)
        try context.daemon {
            try $0.moveRow(
                TableCell(table, section: source.section, row: source.row), toSection: destination.section,
                row: destination.row)
        }
    }
}
