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
            A secret table's rows are offered as their names, or ••••••••, never their
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
            let names = try context.call("ListTables").strings(0)
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
        let found = try context.call("Locate", [.uint64(ids[index])])
        guard try found.string(0) == table else {
            throw CLIFailure.local("the row chosen has moved to table \"\(try found.string(0))\"")
        }
        let path = [string(table), int32(try found.int32(1)), int32(try found.int32(2))]
        // A template row's inputs are asked through the same launcher, one line each.
        if action != "print", let values = try askInputs(path, launcher, context) {
            if action == "copy" {
                _ = try context.call("CopyWithInputs", path + [values.busValue])
            } else {
                let reply = try context.call(
                    "PasteWithInputs", path + [.uint32(0), .uint64(window), values.busValue])
                guard try reply.boolean(0) else {
                    let reason = try reply.string(1)
                    throw CLIFailure.reported(reason.isEmpty ? "the paste was not delivered" : reason)
                }
            }
            return
        }
        switch action {
        case "print":
            try context.output.write(try context.call("GetCell", path).string(0))
        case "copy":
            _ = try context.call("Copy", path)
        default:
            try paste(path, into: window, context)
        }
    }

    /// The values of the row's `{input:…}` labels, asked through `launcher` with the label as
    /// prompt and the default offered; nil for a row without inputs (or a daemon without
    /// templates).
    private func askInputs(_ path: [BusValue], _ launcher: Launcher, _ context: CommandContext) throws
        -> TemplateValues?
    {
        let inputs: [[BusValue]]
        do {
            inputs = try context.call("GetTemplateInputs", path).structures(0, "(sbs)")
        } catch CLIFailure.refused(let error) where error.name == BusErrorName.unknownMethod {
            return nil
        }
        guard !inputs.isEmpty else { return nil }
        var values = TemplateValues()
        for fields in inputs {
            guard fields.count == 3, case .string(let label) = fields[0],
                case .boolean(let hasDefault) = fields[1],
                case .string(let defaultValue) = fields[2]
            else { throw CLIFailure.local("cliptabd answered GetTemplateInputs with an unexpected reply") }
            guard
                let answer = try launcher.ask(
                    prompt: Self.oneLine(label), suggestion: hasDefault ? defaultValue : nil)
            else { throw nothingChosen }
            values.set(label, answer)
        }
        return values
    }

    /// The window focused now (`GetFocusedWindow`, API version 3), or 0 when none is, or
    /// the daemon cannot tell.
    private func focusedWindow(_ context: CommandContext) -> UInt64 {
        guard let reply = try? context.call("GetFocusedWindow"),
            case .uint64(let window)? = reply.values.first
        else { return 0 }
        return window
    }

    /// Pastes the row at `path` into `window` (0: wherever the focus is), saying why when it
    /// was not delivered; copies instead with a daemon from before PasteToFocus.
    private func paste(_ path: [BusValue], into window: UInt64, _ context: CommandContext) throws {
        let reply: DaemonReply
        do {
            reply =
                window != 0
                ? try context.call("PasteToWindow", path + [.uint32(0), .uint64(window)])
                : try context.call("PasteToFocusWithReason", path + [.uint32(0)])
        } catch CLIFailure.refused(let error) where error.name == BusErrorName.unknownMethod {
            do {
                _ = try context.call("PasteToFocus", path + [.uint32(0)])
            } catch CLIFailure.refused(let error) where error.name == BusErrorName.unknownMethod {
                // A daemon from before PasteToFocus: copying is the next best thing.
                _ = try context.call("Copy", path)
            }
            return
        }
        guard try reply.boolean(0) else {
            let reason = try reply.string(1)
            throw CLIFailure.reported(reason.isEmpty ? "the paste was not delivered" : reason)
        }
    }

    /// The lines offered for `table`'s rows, with the row ids in the same order.
    ///
    /// The calls go in batches of one round trip each: the sections, whether the table is
    /// secret and the first section's rows, then the rows of up to `sectionsPerBatch` more
    /// sections at a time.
    private func fetch(
        _ table: String, _ context: CommandContext, into ids: inout [UInt64], _ lines: inout [String]
    ) throws {
        let first = try context.replyMessages([
            ("GetSections", [string(table)]), ("GetSecret", [string(table)]),
            // The first section's rows in the same round trip: most tables have one section.
            // Refused (no such section, or a daemon without GetRowPreviews), it is asked again below.
            ("GetRowPreviews", Self.previews(of: Self.page(table, section: 0))),
        ])
        let sections = try DaemonReply(
            member: "GetSections", values: Self.values(of: first[0], "GetSections")
        )
        .structures(0, "(ssu)")
        let secret = try DaemonReply(member: "GetSecret", values: Self.values(of: first[1], "GetSecret"))
            .boolean(0)
        // A secret's text never reaches the launcher: its rows show their name or a mask.
        let names = secret ? try rowNames(table, context) : nil
        let fetched: [[BusIDText]]
        if !sections.isEmpty, let sectionZero = try? first[2].get().readIDTextArray() {
            fetched = [sectionZero] + (try rows(table, sections: 1..<sections.count, context))
        } else {
            fetched = try rows(table, sections: 0..<sections.count, context)
        }
        for (section, rows) in fetched.enumerated() {
            let header = (try? sections[section].string(at: 0)) ?? ""
            let prefix = header.isEmpty ? "" : Self.oneLine(header) + " › "
            for row in rows {
                ids.append(row.id)
                let shown =
                    names.map { $0[row.id].map(Self.oneLine) ?? Self.secretMask } ?? Self.oneLine(row.text)
                lines.append(prefix + shown)
            }
        }
    }

    /// The values of a batched call's reply, or its failure thrown.
    private static func values(of outcome: Result<BusMessage, CLIFailure>, _ member: String) throws
        -> [BusValue]
    {
        do {
            return try outcome.get().readValues()
        } catch let error as BusError {
            throw CLIFailure.local("cliptabd answered \(member) with an unexpected reply: \(error)")
        }
    }

    /// The most sections whose rows are asked for in one round trip.
    static let sectionsPerBatch = 32

    /// How much of each row is fetched: more than a line offered keeps (`lineLimit`), with
    /// room to see whether more lines follow; the most `GetRowPreviews` sends.
    static let previewCharacters: UInt32 = 4096

    /// The rows of each of the table's `sections`, each cut to its first
    /// `previewCharacters` (`GetRowPreviews`, all sent at once, so that rows of megabytes are
    /// not sent whole only to be cut); `GetRows`, one section after the other, from a daemon
    /// without it.
    private func rows(_ table: String, sections: Range<Int>, _ context: CommandContext) throws
        -> [[BusIDText]]
    {
        let pages = sections.map { Self.page(table, section: $0) }
        var member = "GetRowPreviews"
        do {
            var rows: [[BusIDText]] = []
            // At most `sectionsPerBatch` replies wait at once, whatever the table's size.
            for start in stride(from: 0, to: pages.count, by: Self.sectionsPerBatch) {
                let batch = pages[start..<min(start + Self.sectionsPerBatch, pages.count)]
                let previews = try context.replyMessages(
                    batch.map { (member, Self.previews(of: $0)) })
                if case .failure(.refused(let error))? = previews.first,
                    error.name == BusErrorName.unknownMethod
                {
                    member = "GetRows"
                    return try pages.map { try context.replyMessage(member, $0).readIDTextArray() }
                }
                rows += try previews.map { try $0.get().readIDTextArray() }
            }
            return rows
        } catch let error as BusError {
            throw CLIFailure.local("cliptabd answered \(member) with an unexpected reply: \(error)")
        }
    }

    /// The arguments of `GetRows` for all of `section`'s rows.
    private static func page(_ table: String, section: Int) -> [BusValue] {
        [.string(table), .int32(Int32(section)), .uint32(0), .uint32(0)]
    }

    /// The arguments of `GetRowPreviews` for the same rows as `page`.
    private static func previews(of page: [BusValue]) -> [BusValue] {
        page + [.uint32(previewCharacters)]
    }

    /// What a row of a secret table without a name is offered as (the popup's mask).
    static let secretMask = "••••••••"

    /// The names of `table`'s rows by id (`GetRowNames`); none from a daemon without it.
    private func rowNames(_ table: String, _ context: CommandContext) throws -> [UInt64: String] {
        let pairs: [[BusValue]]
        do {
            pairs = try context.call("GetRowNames", [string(table)]).structures(0, "a(ts)")
        } catch CLIFailure.refused(let error) where error.name == BusErrorName.unknownMethod {
            return [:]
        }
        var names: [UInt64: String] = [:]
        for fields in pairs {
            guard fields.count == 2, case .uint64(let id) = fields[0], case .string(let name) = fields[1]
            else { throw CLIFailure.local("cliptabd answered GetRowNames with an unexpected reply") }
            names[id] = name
        }
        return names
    }

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
