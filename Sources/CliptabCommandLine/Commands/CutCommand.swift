// SPDX-License-Identifier: MIT
import CliptabClient
import DBus

/// `cliptab cut TABLE S:R`: copy, then delete the row.
struct CutCommand: CLICommand {
    /// The command's name, help, arguments and options.
    static let spec = CommandSpec(
        "cut", abstract: "put a cell's text on the clipboard and delete the row (print the text)",
        discussion: """
            If the clipboard cannot be taken, nothing is deleted. The text is printed exactly,
            with no newline added; --quiet prints nothing, and the text of a secret table is
            never printed.
            """ + "\n\n" + addressingHelp,
        arguments: [.table, .cell()],
        options: [.flag("--quiet", short: "-q", help: "print nothing")])

    private let table: String
    private let cell: CellAddress
    private let quiet: Bool

    /// Names the table only: a secret's text must never reach a notification.
    var successNotice: String? { "Cut from \(table)" }

    /// Takes the checked arguments; throws a `UsageError` for one that does not parse.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        table = arguments.argument("TABLE")
        cell = try cellArgument(arguments)
        quiet = arguments.flag("--quiet")
    }

    /// Resolves the address, cuts the row filled in and prints the text as it is (unless quiet
    /// or secret).
    func run(_ context: CommandContext) throws {
        let (section, row) = try context.resolve(cell, in: table)
        // The reply says whether the text is secret: a secret table's row, or a text that
        // includes one or a clipboard text marked secret. A secret is never printed.
        let cut = try context.daemon {
            try $0.cut(TableCell(table, section: section, row: row), quiet: quiet)
        }
        if !quiet && !cut.isSecret { try printText(cut.text, context) }
    }
}
