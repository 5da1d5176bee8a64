// SPDX-License-Identifier: MIT

/// `cliptab cut TABLE S:R`: copy, then delete the row.
struct CutCommand: CLICommand {
    /// The command's name, help, arguments and options.
    static let spec = CommandSpec(
        "cut", abstract: "put a cell's text on the clipboard and delete the row (print the text)",
        discussion: """
            If the clipboard cannot be taken, nothing is deleted. The text is printed exactly,
            with no newline added.
            """ + "\n\n" + addressingHelp,
        arguments: [.table, .cell()])

    private let table: String
    private let cell: CellAddress

    /// Names the table only: a secret's text must never reach a notification.
    var successNotice: String? { "Cut from \(table)" }

    /// Takes the checked arguments; throws a `UsageError` for one that does not parse.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        table = arguments.argument("TABLE")
        cell = try cellArgument(arguments)
    }

    /// Resolves the address, calls `Cut` and prints the text as it is.
    func run(_ context: CommandContext) throws {
        let (section, row) = try context.resolve(cell, in: table)
        try printText(
            try context.call("Cut", [string(table), int32(section), int32(row)]).string(0), context)
    }
}
