// SPDX-License-Identifier: MIT
import CliptabClient

/// `cliptab paste TABLE [S:R]`: the clipboard's text as a new row.
struct PasteCommand: CLICommand {
    /// The command's name, help, arguments and options.
    static let spec = CommandSpec(
        "paste", abstract: "insert the clipboard's text as a row (default: append to section 0)",
        discussion: """
            Reads the clipboard (X11 or Wayland) through cliptabd, whoever holds it, and inserts
            its text as a new row at S:R (the row there moves down; R = -1 appends). Prints nothing (with --json:
            {"text": TEXT}).
            """ + "\n\n" + addressingHelp,
        arguments: [.table, .cell("S:R", .optional, help: "where the new row goes (default 0:-1)")])

    private let table: String
    private let cell: CellAddress

    /// Names the table only: a secret's text must never reach a notification.
    var successNotice: String? { "Pasted into \(table)" }

    /// Takes the checked arguments; throws a `UsageError` for one that does not parse.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        table = arguments.argument("TABLE")
        if let word = arguments.optionalArgument("S:R") {
            cell = try CellAddress.parse(word, argument: "S:R", command: arguments.spec)
        } else {
            cell = .path(.index(0), -1)
        }
    }

    /// Resolves the address and calls `Paste`.
    func run(_ context: CommandContext) throws {
        let (section, row) = try context.resolve(cell, in: table)
        let text = try context.daemon { try $0.paste(TableCell(table, section: section, row: row)) }
        if context.options.json { try printText(text, context) }
    }
}
