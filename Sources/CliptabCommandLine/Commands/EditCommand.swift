// SPDX-License-Identifier: MIT
import CliptabClient
import CliptabContract
import DBus

/// `cliptab edit TABLE [S:R]`: the table as a table file, or one row's text, in the user's
/// editor, applied when saved.
struct EditCommand: CLICommand {
    /// The command's name, help, arguments and options.
    static let spec = CommandSpec(
        "edit", abstract: "edit a table (or one row) in your editor, applied when you save",
        discussion: """
            Writes the table as a table file (YAML; docs/table-file.md) to a private temporary
            file (TABLE-XXXXXX.yaml, mode 0600, in $XDG_RUNTIME_DIR, else $TMPDIR), runs
            $VISUAL, else $EDITOR, else vi on it through 'sh -c', and applies what you saved
            as 'cliptab apply' does, at the revision it wrote: moved rows keep their ids and
            names. Saved unchanged: "no changes". A document error opens the editor again with
            the error as comments at the top; saving that unchanged, or empty, cancels (exit 1),
            and the text is kept and its path printed. If the table changed meanwhile, nothing
            is applied: the text is kept, with the 'cliptab apply' line that applies it over the
            changes. With S:R, one row's exact text is edited (no YAML); a final newline the
            editor adds to a text that had none is dropped; a text the daemon refuses (a bad
            template, too long) opens the editor again, the error on standard error, and saving
            it unchanged cancels. A secret table is edited only in $XDG_RUNTIME_DIR.
            """,
        arguments: [.table, .cell("S:R", .optional, help: "one row to edit as plain text")])

    private let table: String
    private let cell: CellAddress?

    /// Takes the checked arguments; throws a `UsageError` for an address that does not parse.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        table = arguments.argument("TABLE")
        if let word = arguments.optionalArgument("S:R") {
            cell = try CellAddress.parse(word, argument: "S:R", command: arguments.spec)
        } else {
            cell = nil
        }
    }

    /// Runs the editor loop for the table or the row.
    func run(_ context: CommandContext) throws {
        if let cell { try editRow(cell, context) } else { try editTable(context) }
    }

    /// The revision and what `read` read at it: read between two equal revisions.
    private func stable<T>(_ context: CommandContext, _ read: () throws -> T) throws -> (UInt64, T) {
        for _ in 0..<5 {
            let before = try context.daemon { try $0.revision(table) }
            let value = try read()
            if try context.daemon({ try $0.revision(table) }) == before { return (before, value) }
        }
        throw CLIFailure.reported("table \"\(table)\" keeps changing; try again")
    }

    private func editTable(_ context: CommandContext) throws {
        if let file = try linkedFile(context) { return try editLinked(file, context) }
        let directory = try EditorSession.directory(secret: try context.isSecret(table))
        let (revision, text) = try stable(context) {
            try context.daemon { try $0.exportTable(table, format: "yaml") }
        }
        let session = try EditorSession.make(
            in: directory, prefix: table, suffix: ".yaml", bytes: Array(text.utf8))
        var shown = Array(text.utf8)
        var reopened = false
        while true {
            try session.runEditor()
            let saved = try session.read()
            let blank = saved.allSatisfy { $0 == 0x20 || $0 == 0x0A || $0 == 0x09 || $0 == 0x0D }
            if saved == shown && !reopened {
                session.remove()
                try context.output.line("no changes")
                return
            }
            if saved == shown || blank {
                throw CLIFailure.reported(
                    "cancelled (the file was saved \(blank ? "empty" : "unchanged")); nothing was applied, "
                        + "and the text is kept in \(session.path)")
            }
            let document: String
            do { document = try InputReader.text(saved, source: session.path) } catch let failure
                as CLIFailure
            {
                throw CLIFailure.reported(
                    "\(failure.notificationBody); nothing was applied, the text is kept in \(session.path)")
            }
            do {
                let result = try TableFileApply.apply(
                    context, table: table, document: document, revision: revision, dryRun: false)
                session.remove()
                try context.output.line(TableFileApply.summary(result.counts))
                return
            } catch CLIFailure.refused(let error)
                where error.name == CliptabBus.errorPrefix + "RevisionMismatch"
            {
                throw CLIFailure.reported(
                    "\(error.message) (\(error.name)).\nYour text is kept in \(session.path); to apply it over "
                        + "the changes: cliptab apply \(shellQuoted(table)) \(shellQuoted(session.path))")
            } catch CLIFailure.refused(let error) where Self.reopens(error.name) {
                reopened = true
                shown = Array(Self.withError(error.message, document).utf8)
                try session.write(shown)
            } catch {
                writeToStandardError("cliptab: nothing was applied; the text is kept in \(session.path)\n")
                throw error
            }
        }
    }

    /// The file the table is linked to, if it is (nil too from a daemon without links).
    private func linkedFile(_ context: CommandContext) throws -> String? {
        do {
            return try context.daemon { client in
                try client.links().links.first { $0.table == table }?.file
            }
        } catch CLIFailure.refused(let error) where error.name == BusErrorName.unknownMethod {
            return nil
        }
    }

    /// Edits a linked table's file where it is; cliptabd applies it when saved.
    ///
    /// A document error (checked with a dry run) opens the editor again, the error on standard error;
    /// saving it unchanged leaves the file as saved, and the table as it was until it is fixed.
    private func editLinked(_ file: String, _ context: CommandContext) throws {
        let session = EditorSession(path: file)
        let before = try session.read()
        var refused: [UInt8]?
        while true {
            try session.runEditor()
            let saved = try session.read()
            if saved == before && refused == nil {
                try context.output.line("no changes")
                return
            }
            if let refused, refused == saved {
                throw CLIFailure.reported(
                    "\(file) stays as you saved it; cliptabd leaves table \"\(table)\" as it was, and refuses "
                        + "changes to it, until the file is fixed")
            }
            do {
                let document = try InputReader.text(saved, source: file)
                _ = try TableFileApply.apply(
                    context, table: table, document: document, revision: 0, dryRun: true)
                try context.output.line("saved \(file); cliptabd applies it to table \"\(table)\"")
                return
            } catch CLIFailure.refused(let error) where Self.reopens(error.name) {
                writeToStandardError(
                    "cliptab: \(file): \(error.message) (\(error.name)); fix the file and save it, "
                        + "or save it unchanged to leave it so\n")
                refused = saved
            }
        }
    }

    /// The errors a person fixes in the document: it opens again.
    private static func reopens(_ name: String) -> Bool {
        ["InvalidArgument", "InvalidName", "NameInUse", "LimitExceeded", "InvalidTemplate", "NotPermitted"]
            .contains { name == CliptabBus.errorPrefix + $0 }
    }

    private static let marker = "# cliptab: "

    /// `document` with its old error comments replaced by `message`'s, its line number
    /// moved to count the new comment lines.
    static func withError(_ message: String, _ document: String) -> String {
        var lines = document.split(separator: "\n", omittingEmptySubsequences: false)
        var removed = 0
        while let first = lines.first, first.hasPrefix(marker) {
            lines.removeFirst()
            removed += 1
        }
        var messageLines = message.split(separator: "\n").map(String.init)
        let footer = "fix the file and save it to apply it; save it unchanged or empty to cancel"
        let added = messageLines.count + 1
        if let first = messageLines.first, first.hasPrefix("line "),
            let comma = first.firstIndex(of: ","),
            let number = Int(first[first.index(first.startIndex, offsetBy: 5)..<comma])
        {
            messageLines[0] = "line \(number - removed + added)" + first[comma...]
        }
        let header = (messageLines + [footer]).map { marker + $0 }.joined(separator: "\n")
        return header + "\n" + lines.joined(separator: "\n")
    }

    private func editRow(_ cell: CellAddress, _ context: CommandContext) throws {
        let directory = try EditorSession.directory(secret: try context.isSecret(table))
        let (revision, row) = try stable(context) { () throws -> (Int32, Int32, String) in
            let (section, row) = try context.resolve(cell, in: table)
            return (
                section, row,
                try context.daemon { try $0.cell(TableCell(table, section: section, row: row)) }
            )
        }
        let (section, index, text) = row
        let session = try EditorSession.make(
            in: directory, prefix: table, suffix: ".txt", bytes: Array(text.utf8))
        let kept = "the text is kept in \(session.path)"
        // What the file held when the editor last closed after a refusal: saved so again, cancel.
        var refused: [UInt8]?
        while true {
            try session.runEditor()
            let raw = try session.read()
            var saved = raw
            if saved.last == 0x0A && text.utf8.last != 0x0A { saved.removeLast() }
            if let refused, refused == raw {
                throw CLIFailure.reported(
                    "cancelled (the file was saved unchanged); nothing was changed, \(kept)")
            }
            if saved.elementsEqual(text.utf8) {
                session.remove()
                try context.output.line("no changes")
                return
            }
            let newText: String
            do { newText = try InputReader.text(saved, source: session.path) } catch let failure as CLIFailure
            {
                throw CLIFailure.reported("\(failure.notificationBody); nothing was changed, \(kept)")
            }
            let changed = "table \"\(table)\" changed while you edited the row; nothing was changed, \(kept)"
            do {
                try setCell(context, section, index, newText, at: revision, changed: changed)
                break
            } catch CLIFailure.refused(let error)
                where error.name == CliptabBus.errorPrefix + "RevisionMismatch"
            {
                throw CLIFailure.reported("\(error.message) (\(error.name)); \(kept)")
            } catch CLIFailure.reported(let message) {
                // The older daemon's check: its message already says the text is kept.
                throw CLIFailure.reported(message)
            } catch CLIFailure.refused(let error) where Self.reopensRow(error.name) {
                // A plain text has no room for comment lines: the error goes to standard error
                // and the editor opens again on the text as it was saved.
                writeToStandardError(
                    "cliptab: \(error.message) (\(error.name)); fix the text and save it to apply it, "
                        + "or save it unchanged to cancel\n")
                refused = raw
            } catch {
                writeToStandardError("cliptab: nothing was changed; \(kept)\n")
                throw error
            }
        }
        session.remove()
        try context.output.line("1 changed")
    }

    /// Sets the cell if the table is still at `revision`: one `EditCell` call, or on a daemon
    /// without it a `GetRevision` check just before `SetCell` (a change in that round trip is lost).
    private func setCell(
        _ context: CommandContext, _ section: Int32, _ row: Int32, _ text: String, at revision: UInt64,
        changed: String
    ) throws {
        guard
            try context.daemon({
                try $0.setCell(TableCell(table, section: section, row: row), text, ifAtRevision: revision)
            })
        else { throw CLIFailure.reported(changed) }
    }

    /// The errors of `SetCell` a person fixes in the text: the editor opens again.
    private static func reopensRow(_ name: String) -> Bool {
        ["InvalidTemplate", "LimitExceeded", "InvalidArgument"].contains {
            name == CliptabBus.errorPrefix + $0
        }
    }
}

/// `word` quoted for a POSIX shell when it needs it.
func shellQuoted(_ word: String) -> String {
    let plain =
        !word.isEmpty
        && word.utf8.allSatisfy {
            ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A)
                || $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-")
                || $0 == UInt8(ascii: "_")
        }
    if plain { return word }
    return "'" + word.replacing("'", with: "'\\''") + "'"
}
