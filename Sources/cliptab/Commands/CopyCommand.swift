// SPDX-License-Identifier: MIT

/// `cliptab copy TABLE S:R`: a cell's text to the X11 clipboard.
struct CopyCommand: CLICommand {
    /// The command's name, help, arguments and options.
    static let spec = CommandSpec(
        "copy", abstract: "put a cell's text on the clipboard (and print it)",
        discussion: """
            The text becomes the X11 CLIPBOARD, held by cliptabd, and is printed exactly, with
            no newline added. Bind it to a key: cliptab copy snippets 0:0
            """ + "\n\n" + addressingHelp,
        arguments: [.table, .cell()])

    private let table: String
    private let cell: CellAddress

    /// Names the table only: a secret's text must never reach a notification.
    var successNotice: String? { "Copied from \(table)" }

    /// Takes the checked arguments; throws a `UsageError` for one that does not parse.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        table = arguments.argument("TABLE")
        cell = try cellArgument(arguments)
    }

    /// Resolves the address, calls `Copy` and prints the text as it is.
    func run(_ context: CommandContext) throws {
        let (section, row) = try context.resolve(cell, in: table)
        try printText(
            try context.call("Copy", [string(table), int32(section), int32(row)]).string(0), context)
    }
}
