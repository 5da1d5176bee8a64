// SPDX-License-Identifier: MIT

/// `cliptab copy TABLE S:R`: a cell's text to the X11 clipboard, or with `--paste` into the
/// focused window.
struct CopyCommand: CLICommand {
    /// The command's name, help, arguments and options.
    static let spec = CommandSpec(
        "copy", abstract: "put a cell's text on the clipboard (and print it), or paste it (--paste)",
        discussion: """
            The text becomes the X11 CLIPBOARD, held by cliptabd, and is printed exactly, with
            no newline added. Bind it to a key: cliptab copy snippets 0:0

            With --paste the text lands where the cursor is: cliptabd sends the paste key
            (Ctrl+V; Ctrl+Shift+V in terminals) to the focused window, waits until that window
            has fetched the text, then puts the clipboard back as it was. Nothing is printed.
            Exit 0 when the window fetched the text, 1 when it did not in time (the text then
            stays on the clipboard, unless the table is secret). Keys still held from the
            shortcut are released first, so the window sees exactly the paste key. Keys and
            terminals are set in cliptab.conf, section [paste_to_focus].
            """ + "\n\n" + addressingHelp,
        arguments: [.table, .cell()],
        options: [.flag("--paste", help: "paste into the focused window and restore the clipboard")])

    private let table: String
    private let cell: CellAddress
    private let paste: Bool

    /// Names the table only: a secret's text must never reach a notification.
    var successNotice: String? { paste ? "Pasted from \(table)" : "Copied from \(table)" }

    /// Takes the checked arguments; throws a `UsageError` for one that does not parse.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        table = arguments.argument("TABLE")
        cell = try cellArgument(arguments)
        paste = arguments.flag("--paste")
    }

    /// Resolves the address, calls `Copy` and prints the text as it is; with `--paste`
    /// calls `PasteToFocus` with the configured wait.
    func run(_ context: CommandContext) throws {
        let (section, row) = try context.resolve(cell, in: table)
        guard paste else {
            try printText(
                try context.call("Copy", [string(table), int32(section), int32(row)]).string(0), context)
            return
        }
        let delivered = try context.call(
            "PasteToFocus", [string(table), int32(section), int32(row), .uint32(0)]
        ).boolean(0)
        guard delivered else {
            throw CLIFailure.reported(
                "the focused window did not fetch the text in time (it stays on the clipboard, unless the table is secret)"
            )
        }
    }
}
