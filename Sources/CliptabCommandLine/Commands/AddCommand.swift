// SPDX-License-Identifier: MIT
import CliptabClient
import CliptabContract
import DBus

/// `cliptab add TABLE [--section S] TEXT...` (or `--file FILE`): appends rows in one call.
struct AddCommand: CLICommand {
    /// The command's name, help, arguments and options.
    static let spec = CommandSpec(
        "add", abstract: "append rows to a section (- reads one row per line from stdin)",
        discussion: """
            Every TEXT becomes one row, in order, at the end of the section (section 0 unless
            --section says otherwise); all are added together or none. A TEXT of - is replaced
            by the lines of standard input (split at newlines, nothing else changed; a last
            newline does not make an empty row). Prints the new rows' ids, one '#ID' a line
            (with --json: an array of numbers). A text that starts with '-' needs '--' before it.

            --file FILE adds one row holding the file's whole content exactly (newlines,
            the last one too, kept); --file - reads that one row from standard input.
            --name NAME names the new row (one row only; see 'cliptab name').
            """,
        arguments: [
            .table, ArgumentSpec("TEXT", .zeroOrMore, help: "the rows' texts, or - for standard input"),
        ],
        options: [
            .value("--section", "S", help: "the section to append to (an index or @HEADER; default 0)"),
            .value(
                "--file", "FILE", help: "add one row: FILE's whole content (- = standard input)",
                completion: .file),
            .value("--name", "NAME", help: "name the new row (one row only)"),
        ]
    )

    private let table: String
    private let section: SectionAddress
    private let texts: [String]
    private let file: String?
    private let name: String?

    /// Takes the checked arguments; throws a `UsageError` for one that does not parse.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        table = arguments.argument("TABLE")
        texts = arguments.arguments("TEXT")
        file = arguments.value("--file")
        name = try rowNameOption(arguments)
        if let word = arguments.value("--section") {
            section = try SectionAddress.parse(word, argument: "--section", command: arguments.spec)
        } else {
            section = .index(0)
        }
        if file != nil && !texts.isEmpty {
            throw arguments.error("give TEXT arguments or --file, not both")
        }
        if file == nil && texts.isEmpty {
            throw arguments.error("give at least one TEXT (or - for standard input), or --file FILE")
        }
        if texts.filter({ $0 == "-" }).count > 1 {
            throw arguments.error("- (standard input) can be given only once")
        }
        if name != nil && file == nil && (texts.count != 1 || texts[0] == "-") {
            throw arguments.error("--name names one row: give one TEXT or --file")
        }
    }

    /// Reads standard input or the file if asked, then calls `InsertRows` once (and names
    /// the row) and prints the new ids.
    func run(_ context: CommandContext) throws {
        // Standard input is read before the daemon is called, so that the timeout only
        // counts time spent waiting for it.
        var rows: [String] = []
        if let file {
            let source = file == "-" ? "standard input" : file
            rows = [try InputReader.text(InputReader.readAll(file), source: source)]
        }
        for text in texts {
            if text == "-" {
                rows += try InputReader.lines(InputReader.readAll(nil), source: "standard input")
            } else {
                rows.append(text)
            }
        }
        if let name { try checkNameFree(name, in: table, context) }
        let index = try context.resolve(section, in: table)
        let ids = try context.daemon { try $0.insertRows(TableCell(table, section: index, row: -1), rows) }
        if let name, let id = ids.first { try nameNewRow(id, name, in: table, context) }
        if context.options.json {
            try context.output.line(JSON.array(ids.map { .unsigned($0) }).rendered)
        } else {
            for id in ids { try context.output.line("#\(id)") }
        }
    }
}

/// The `--name` option of `add` and `insert`, checked against the name grammar.
func rowNameOption(_ arguments: ParsedArguments) throws(UsageError) -> String? {
    guard let word = arguments.value("--name") else { return nil }
    guard RowName.isValid(word) else {
        throw arguments.error(
            "--name \"\(word)\" is not a row name: 1–\(RowName.maxBytes) bytes of letters, digits, '_', '.'"
                + " and '-', starting with a letter or '_'")
    }
    return word
}

/// Refuses, before anything is inserted, a name that a row of `table` already has.
func checkNameFree(_ name: String, in table: String, _ context: CommandContext) throws {
    do {
        _ = try context.daemon { try $0.findRow(table, name: name) }
    } catch CLIFailure.refused(let error) where error.name.hasSuffix(".NoSuchRow") {
        return
    } catch CLIFailure.refused(let error) where error.name.hasSuffix(".NoSuchTable") {
        // The insert reports that in its own words.
        return
    }
    throw CLIFailure.refused(
        BusError(
            name: CliptabBus.errorPrefix + "NameInUse",
            message: "a row of table \"\(table)\" is already named \"\(name)\"; nothing was added"))
}

/// Names the just-inserted row `id`; if that fails, deletes the row again, so that the
/// command adds a named row or nothing.
func nameNewRow(_ id: UInt64, _ name: String, in table: String, _ context: CommandContext) throws {
    let found = try context.daemon { try $0.locate(id) }
    let cell = TableCell(table, section: found.section, row: found.row)
    do {
        try context.daemon { try $0.setRowName(cell, name) }
    } catch {
        _ = try? context.daemon { try $0.deleteRow(cell) }
        throw error
    }
}
