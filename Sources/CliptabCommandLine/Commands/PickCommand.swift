// SPDX-License-Identifier: MIT
import CliptabClient
import CliptabContract
import DBus
import Glibc
import Posix

/// `cliptab pick [TABLE] [--launcher L] [--action A]`: choose a row with dmenu, rofi, fzf,
/// wofi or any line picker, then paste, copy or print it.
struct PickCommand: CLICommand {
    /// The command's name, help, arguments and options.
    static let spec = CommandSpec(
        "pick", abstract: "choose a row with dmenu, rofi, fzf or wofi, then paste, copy or print it",
        discussion: """
            Writes one line per row to the launcher's stdin: 'Header › text', the first line
            of a multi-line text followed by ⏎. With no TABLE the tables are offered first.
            The choice is mapped back to the row's id kept in memory (rofi and wofi print the
            line's index; dmenu, fzf and other commands get lines that start with a number,
            which fzf hides), never by the text, so rows with the same text stay apart.
            A secret table's rows are offered as their names, or \(secretMask), never their
            text. Control characters reach the launcher escaped as show writes them (\\x1b,
            \\u{202e}); only its first line of output is read, at most 64 KiB.
            --launcher takes dmenu, rofi, fuzzel, wofi, fzf or any command, with its own
            arguments after it ('dmenu -fn mono'); auto (the default) takes the first installed
            that suits the session: on Wayland fuzzel, wofi, rofi 2; on X11 rofi, dmenu;
            without a display fzf. fuzzel answers with the line's index (--index).
            --action: paste (the default) into the focused window, copying instead where the
            daemon cannot paste; copy; print the text. The paste goes to the window that had
            the focus before the launcher ran. Exit 1 when nothing was chosen, when the
            launcher crashed (its signal on stderr), or when the paste was not delivered (the
            daemon's reason on stderr).
            """,
        arguments: [ArgumentSpec("TABLE", .optional, help: "the table to pick from", completion: .table)],
        options: [
            .value(
                "--launcher", "COMMAND",
                help: "auto (the default), dmenu, rofi, fuzzel, wofi, fzf or a command reading lines"),
            .value(
                "--action", "ACTION", choices: ["paste", "copy", "print"], help: "what to do with the row"),
        ])

    private let table: String?
    /// The launcher named, or nil for `auto`: chosen when the command runs.
    private let named: Launcher?
    private let action: String

    /// Takes the checked arguments; throws a `UsageError` for an empty launcher.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        table = arguments.optionalArgument("TABLE")
        let text = arguments.value("--launcher") ?? "auto"
        named = text.split(whereSeparator: { $0 == " " || $0 == "\t" }) == ["auto"] ? nil : try Launcher(text)
        action = arguments.value("--action") ?? "paste"
    }

    /// Offers the rows, maps the choice back to its id, and acts on that row.
    func run(_ context: CommandContext) throws {
        let launcher = try named ?? LauncherChoice.choose()
        // Before any launcher runs: the window to paste into. A launcher that grabs the
        // keyboard, or sets the focus to PointerRoot, leaves none focused when it exits.
        let window = action == "paste" ? focusedWindow(context) : 0
        // With TABLE, the launcher starts before anything else: its own start-up (display,
        // fonts) overlaps connecting to the bus and fetching the rows, which it would wait
        // for anyway. Whatever fails on the way stops it again.
        let table: String
        let running: ChildProcess
        if let given = self.table {
            table = given
            running = try launcher.start(prompt: Self.oneLine(table))
        } else {
            let names = try context.daemon { try $0.tables() }
            guard let index = try choose(names.map(Self.oneLine), prompt: "table", launcher) else {
                throw nothingChosen
            }
            table = names[index]
            running = try launcher.start(prompt: Self.oneLine(table))
        }
        var ids: [UInt64] = []
        var lines: [String] = []
        do {
            try fetch(table, context, into: &ids, &lines)
        } catch {
            running.terminate(graceMilliseconds: 500)
            LauncherStop.disarm()
            throw error
        }
        let (output, succeeded) = try launcher.finish(
            running, lines.enumerated().map { launcher.line($0.offset, $0.element) })
        guard succeeded, let index = launcher.chosen(output, count: lines.count) else { throw nothingChosen }
        let found = try context.daemon { try $0.locate(ids[index]) }
        guard found.table == table else {
            throw CLIFailure.local("the row chosen has moved to table \"\(found.table)\"")
        }
        // A template row's inputs are asked through the same launcher, one line each.
        if action != "print", let values = try askInputs(found, launcher, context) {
            if action == "copy" {
                try context.daemon { try $0.copy(found, inputs: values.pairs) }
            } else {
                try delivered(context.daemon { try $0.paste(found, inputs: values.pairs, window: window) })
            }
            return
        }
        switch action {
        case "print":
            try context.output.write(try context.daemon { try $0.cell(found) })
        case "copy":
            try context.daemon { try $0.copy(found) }
        default:
            // Copies instead with a daemon from before PasteToFocus.
            try delivered(context.daemon { try $0.paste(found, window: window) })
        }
    }

    /// The values of the row's `{input:…}` labels, asked through `launcher` with the label as
    /// prompt and the default offered; nil for a row without inputs (or a daemon without
    /// templates).
    private func askInputs(_ cell: TableCell, _ launcher: Launcher, _ context: CommandContext) throws
        -> TemplateValues?
    {
        let inputs = try context.daemon { try $0.templateInputs(cell) }
        guard !inputs.isEmpty else { return nil }
        var values = TemplateValues()
        for input in inputs {
            guard
                let answer = try launcher.ask(
                    prompt: Self.oneLine(input.label), suggestion: input.hasDefault ? input.defaultValue : nil
                )
            else { throw nothingChosen }
            values.set(input.label, answer)
        }
        return values
    }

    /// The window focused now (`GetFocusedWindow`, API version 3), or 0 when none is, or
    /// the daemon cannot tell.
    private func focusedWindow(_ context: CommandContext) -> UInt64 {
        (try? context.daemon { try $0.focusedWindow() }) ?? 0
    }

    /// Throws the daemon's reason when a paste was not delivered.
    private func delivered(_ outcome: PasteOutcome) throws {
        guard outcome.delivered else {
            throw CLIFailure.reported(outcome.reason.isEmpty ? "the paste was not delivered" : outcome.reason)
        }
    }

    /// The lines offered for `table`'s rows, with the row ids in the same order: each row's
    /// first line, or for a secret table its name or the mask, never its text.
    private func fetch(
        _ table: String, _ context: CommandContext, into ids: inout [UInt64], _ lines: inout [String]
    ) throws {
        let listing = try context.daemon {
            try $0.listing(table, characters: Self.previewCharacters, sectionsPerBatch: Self.sectionsPerBatch)
        }
        // A secret's text never reaches the launcher: its rows show their name or the mask.
        let names = listing.isSecret ? try context.daemon { try $0.rowNamesByID(table) } : [:]
        for (section, rows) in listing.rows.enumerated() {
            let header = listing.sections[section].header
            let prefix = header.isEmpty ? "" : Self.oneLine(header) + " › "
            for row in rows {
                ids.append(row.id)
                let shown =
                    listing.isSecret ? names[row.id].map(Self.oneLine) ?? secretMask : Self.oneLine(row.text)
                lines.append(prefix + shown)
            }
        }
    }

    /// The most sections whose rows are asked for in one round trip.
    static let sectionsPerBatch = 32

    /// How much of each row is fetched: more than a line offered keeps (`lineLimit`), with
    /// room to see whether more lines follow; the most `GetRowPreviews` sends.
    static let previewCharacters: UInt32 = 4096

    /// The error for a launcher closed without a choice.
    private var nothingChosen: CLIFailure { CLIFailure.cancelled("nothing chosen") }

    /// Runs the launcher over `texts` and returns the index chosen, if any.
    private func choose(_ texts: [String], prompt: String, _ launcher: Launcher) throws -> Int? {
        let lines = texts.enumerated().map { launcher.line($0.offset, $0.element) }
        let (output, succeeded) = try launcher.run(lines, prompt: prompt)
        guard succeeded else { return nil }
        return launcher.chosen(output, count: lines.count)
    }

    /// The most characters of a line offered to the launcher: more than any screen shows,
    /// and short enough that dmenu's answer (the whole line) stays under the launcher's
    /// answer bound.
    static let lineLimit = 2000

    /// The first line of `text`, with ` ⏎` when more lines follow, tabs and carriage
    /// returns as spaces, cut to `lineLimit` characters (ending in "…"), and control
    /// characters made visible as `show` writes them (`\x1b`, `\u{9b}`, `\u{202e}`), so
    /// that a row cannot drive the launcher or a terminal it runs in.
    static func oneLine(_ text: String) -> String {
        // The common row, one short line of printable ASCII, is offered as it is: one pass
        // over its bytes instead of the scalar walks below (a 1,000-row pick spent more time
        // here than on the bus).
        if text.utf8.count <= lineLimit, text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text }
        // Split at the first newline byte, by scalars: "\r\n" is one Character, which a split
        // by Characters would not see as a line end.
        let all = text.unicodeScalars
        let newline = text.utf8.firstIndex(of: UInt8(ascii: "\n"))
        var first = Substring(newline.map { all[..<$0] } ?? all[...])
        if newline != nil && first.unicodeScalars.last == "\r" {
            first = Substring(first.unicodeScalars.dropLast())
        }
        let more =
            newline.map { all[all.index(after: $0)...].contains { !$0.properties.isWhitespace } } ?? false
        var cut = false
        let scalars = first.unicodeScalars
        if let end = scalars.index(scalars.startIndex, offsetBy: lineLimit, limitedBy: scalars.endIndex),
            end != scalars.endIndex
        {
            first = Substring(scalars[..<end])
            cut = true
        }
        // Most rows need neither spaces for tabs nor escapes: one look, and no copy.
        let plain = !first.unicodeScalars.contains {
            $0 == "\t" || $0 == "\r" || TerminalText.needsEscape($0)
        }
        let shown =
            (plain ? String(first) : TerminalText.escaped(String(first).replacingTabsAndReturns()))
            + (cut ? "…" : "")
        return more ? shown + " ⏎" : shown
    }
}

extension String {
    /// The text with tabs and carriage returns as spaces (a tab would split fzf's fields).
    fileprivate func replacingTabsAndReturns() -> String {
        String(unicodeScalars.map { $0 == "\t" || $0 == "\r" ? " " : Character($0) })
    }
}
