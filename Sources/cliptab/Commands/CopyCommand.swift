// SPDX-License-Identifier: MIT

/// `cliptab copy TABLE S:R`: a cell's text to the X11 clipboard, or with `--paste` into the
/// focused window.
struct CopyCommand: CLICommand {
    /// The command's name, help, arguments and options.
    static let spec = CommandSpec(
        "copy", abstract: "put a cell's text on the clipboard (and print it), or paste it (--paste)",
        discussion: """
            The text becomes the X11 CLIPBOARD, held by cliptabd, and is printed exactly, with
            no newline added; --quiet prints nothing, and the text of a secret table is never
            printed. Bind it to a key by the row's name: cliptab copy -q snippets sig

            With --paste the text lands where the cursor is: cliptabd sends the paste key
            (Ctrl+V; Ctrl+Shift+V in terminals) to the focused window, waits until that window
            has fetched the text, then puts the clipboard back as it was. Nothing is printed.
            Exit 0 when the window fetched the text, 1 when it did not in time (the text then
            stays on the clipboard, unless the table is secret). Keys still held from the
            shortcut are released first, so the window sees exactly the paste key. Keys and
            terminals are set in cliptab.conf, section [paste_to_focus].
            """ + "\n\n" + addressingHelp,
        arguments: [.table, .cell()],
        options: [
            .flag("--paste", help: "paste into the focused window and restore the clipboard"),
            .flag("--quiet", short: "-q", help: "print nothing"),
        ])

    private let table: String
    private let cell: CellAddress
    private let paste: Bool
    private let quiet: Bool

    /// Names the table only: a secret's text must never reach a notification.
    var successNotice: String? { paste ? "Pasted from \(table)" : "Copied from \(table)" }

    /// Takes the checked arguments; throws a `UsageError` for one that does not parse.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        table = arguments.argument("TABLE")
        cell = try cellArgument(arguments)
        paste = arguments.flag("--paste")
        quiet = arguments.flag("--quiet")
    }

    /// Resolves the address, calls `Copy` and prints the text as it is (unless quiet or
    /// secret); with `--paste` calls `PasteToFocusWithReason` with the configured wait and
    /// reports the daemon's reason when the text was not delivered.
    func run(_ context: CommandContext) throws {
        let (section, row) = try context.resolve(cell, in: table)
        guard paste else {
            let text = try context.call("Copy", [string(table), int32(section), int32(row)]).string(0)
            // Asked only when the text would be printed: a quiet copy costs one call.
            if !quiet, try !context.isSecret(table) { try printText(text, context) }
            return
        }
        let reply = try context.call(
            "PasteToFocusWithReason", [string(table), int32(section), int32(row), .uint32(0)])
        guard try reply.boolean(0) else {
            // The daemon's own words: what it saw (no focus, no fetch in time, a Wayland window).
            let reason = try reply.string(1)
            throw CLIFailure.reported(reason.isEmpty ? "the paste was not delivered" : reason)
        }
    }
}
