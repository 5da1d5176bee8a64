// SPDX-License-Identifier: MIT
import CliptabClient
import DBus

/// `cliptab copy TABLE S:R`: a cell's text to the clipboard (X11 or Wayland), or with
/// `--paste` into the focused window.
struct CopyCommand: CLICommand {
    /// The command's name, help, arguments and options.
    static let spec = CommandSpec(
        "copy", abstract: "put a cell's text on the clipboard (and print it), or paste it (--paste)",
        discussion: """
            The text becomes the clipboard (CLIPBOARD on X11, the Wayland clipboard on Wayland),
            held by cliptabd, and is printed exactly, with no newline added; --quiet prints
            nothing, and the text of a secret table is never printed. Bind it to a key by the
            row's name: cliptab copy -q snippets sig

            With --paste the text lands where the cursor is: cliptabd sends the paste key
            (Ctrl+V; Ctrl+Shift+V in terminals) to the focused window, waits until that window
            has fetched the text, then puts the clipboard back as it was. Nothing is printed.
            Exit 0 when the window fetched the text, 1 when it did not in time (the text then
            stays on the clipboard, unless the table is secret). Keys still held from the
            shortcut are released first, so the window sees exactly the paste key. Keys and
            terminals are set in cliptab.conf, section [paste_to_focus].

            A row of a templates table is filled in first ({date}, {clipboard}, {input:Label}…);
            --set Label=value gives an input's value, and those still missing are asked on the
            terminal (elsewhere the call fails naming them). --raw copies the stored text. A text
            filled in with a secret ({snippet:…} of a secret table, or a {clipboard} its owner
            marked as a password) is a secret copy: cleared after secret_clear_ms, never printed.

            With --sequence the rows from S:R to the end of its section (or --count N of them)
            are pasted one per Ctrl+V: the first is on the clipboard, each paste by a window puts
            the next there, and after the last the clipboard from before comes back. It prints
            where it is (1 of 5: TABLE @HEADER); cliptab sequence shows it later, cliptab
            sequence --stop ends it. See docs/cli.md.
            """ + "\n\n" + addressingHelp,
        arguments: [.table, .cell()],
        options: [
            .flag("--paste", help: "paste into the focused window and restore the clipboard"),
            .flag("--quiet", short: "-q", help: "print nothing"),
            .flag("--raw", help: "copy a template's stored text, placeholders and all"),
            .flag(
                "--sequence", help: "paste the rows from S:R on one per paste, then put the clipboard back"),
            .value("--count", "N", help: "with --sequence: this many rows (default: to the section's end)"),
            .repeatedValue(
                "--set", "LABEL=VALUE", help: "the value of a template's {input:LABEL} (repeatable)"),
        ])

    private let table: String
    private let cell: CellAddress
    private let paste: Bool
    private let quiet: Bool
    private let raw: Bool
    private let values: TemplateValues
    /// With `--sequence`: how many rows (0: to the section's end); nil without it.
    private let sequenceCount: UInt64?

    /// Names the table only: a secret's text must never reach a notification.
    var successNotice: String? {
        sequenceCount != nil
            ? "Sequence from \(table)" : paste ? "Pasted from \(table)" : "Copied from \(table)"
    }

    /// Takes the checked arguments; throws a `UsageError` for one that does not parse.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        table = arguments.argument("TABLE")
        cell = try cellArgument(arguments)
        paste = arguments.flag("--paste")
        quiet = arguments.flag("--quiet")
        raw = arguments.flag("--raw")
        values = try TemplateValues(parsing: arguments.values("--set"), command: arguments)
        if raw && (paste || !values.isEmpty) {
            throw arguments.error("--raw copies the stored text: it takes neither --paste nor --set")
        }
        if arguments.flag("--sequence") {
            guard !paste && !raw && values.isEmpty else {
                throw arguments.error("--sequence takes neither --paste, --raw nor --set")
            }
            let count = arguments.value("--count")
            guard let number = UInt64(count ?? "0"), count.map({ $0.allSatisfy(\.isASCII) }) ?? true,
                count == nil || number > 0
            else {
                throw arguments.error("--count \"\(count ?? "")\" is not a number of rows from 1")
            }
            sequenceCount = number
        } else {
            guard arguments.value("--count") == nil else { throw arguments.error("--count needs --sequence") }
            sequenceCount = nil
        }
    }

    /// Resolves the address, copies the text filled in and prints it as it is (unless quiet
    /// or secret); with `--paste` calls `PasteToFocusWithReason` with the configured wait and
    /// reports the daemon's reason when the text was not delivered.
    func run(_ context: CommandContext) throws {
        let (section, row) = try context.resolve(cell, in: table)
        if let sequenceCount {
            let position = try context.daemon { client in
                try client.startSequence(table, section: section, row: row, count: sequenceCount)
            }
            if !quiet { try context.output.line(position.line) }
            return
        }
        let cell = TableCell(table, section: section, row: row)
        guard paste else {
            // The reply says whether the text is secret: a secret table's row, or a text that
            // includes one or a clipboard text marked secret. A secret is never printed.
            let copied = try withValues(context, section, row) { values in
                try context.daemon { try $0.copy(cell, inputs: values.pairs, raw: raw, quiet: quiet) }
            }
            if !quiet && !copied.isSecret { try printText(copied.text, context) }
            return
        }
        let outcome = try withValues(context, section, row) { values in
            // Without values the first API's call; with them (or once asked) the templates' own.
            try context.daemon {
                values.isEmpty
                    ? try $0.pasteToFocusWithReason(cell) : try $0.paste(cell, inputs: values.pairs)
            }
        }
        guard outcome.delivered else {
            // The daemon's own words: what it saw (no focus, no fetch in time, a Wayland window).
            throw CLIFailure.reported(outcome.reason.isEmpty ? "the paste was not delivered" : outcome.reason)
        }
    }

    /// `call` with the values given; when the daemon answers `InputRequired` and none were
    /// given, asks for them on the terminal and calls again.
    private func withValues<Answer>(
        _ context: CommandContext, _ section: Int32, _ row: Int32, _ call: (TemplateValues) throws -> Answer
    ) throws -> Answer {
        var values = self.values
        if values.isEmpty {
            do { return try call(values) } catch  where TemplateValues.isInputRequired(error) {
                guard try values.ask(context, table: table, section: section, row: row) else { throw error }
            }
        }
        return try call(values)
    }
}
