// SPDX-License-Identifier: MIT
import CliptabClient
import CliptabContract

/// `cliptab name TABLE S:R NAME` (or `--clear`): names a row, so that a key binding can
/// address it however it moves; `cliptab name TABLE --list` prints the names.
struct NameCommand: CLICommand {
    /// The command's name, help, arguments and options.
    static let spec = CommandSpec(
        "name", abstract: "name a row (or --clear its name), to address it by that name",
        discussion: """
            A name is 1–64 bytes of letters, digits, '_', '.' and '-', starting with a letter
            or '_', and unique within the table. It stays with the row through moves and
            edits, so 'cliptab copy snippets sig' keeps copying the same row wherever it
            goes. Naming a row another row's name is refused (NameInUse). --list prints the
            table's row names in table order, one a line (with --json: [{"id", "name"}]).
            """ + "\n\n" + addressingHelp,
        arguments: [
            .table, .cell("S:R", .optional), ArgumentSpec("NAME", .optional, help: "the row's new name"),
        ],
        options: [
            .flag("--clear", help: "remove the row's name"),
            .flag("--list", help: "print the table's row names"),
        ])

    private let table: String
    private let cell: CellAddress?
    private let name: String

    /// Takes the checked arguments; throws a `UsageError` for one that does not parse.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        table = arguments.argument("TABLE")
        let address = arguments.arguments("S:R").first
        let given = arguments.arguments("NAME").first
        if arguments.flag("--list") {
            guard address == nil, given == nil, !arguments.flag("--clear") else {
                throw arguments.error("--list takes the TABLE alone")
            }
            cell = nil
            name = ""
            return
        }
        guard let address else { throw arguments.error("give the row (S:R) to name, or --list") }
        cell = try CellAddress.parse(address, argument: "S:R", command: arguments.spec)
        switch (given, arguments.flag("--clear")) {
        case (nil, false): throw arguments.error("give a NAME, or --clear to remove the row's name")
        case (_?, true): throw arguments.error("give a NAME or --clear, not both")
        case (nil, true): name = ""
        case (let word?, false):
            guard RowName.isValid(word) else {
                throw arguments.error(
                    "\"\(word)\" is not a row name: 1–\(RowName.maxBytes) bytes of letters, digits, '_', '.'"
                        + " and '-', starting with a letter or '_'")
            }
            name = word
        }
    }

    /// Resolves the address and calls `SetRowName`; or lists the names (`GetRowNames`).
    func run(_ context: CommandContext) throws {
        guard let cell else {
            let listed = try context.daemon { try $0.rowNames(table) }
            if context.options.json {
                try context.output.line(
                    JSON.array(
                        listed.map { .object([("id", .unsigned($0.id)), ("name", .string($0.name))]) }
                    )
                    .rendered)
            } else {
                for entry in listed { try context.output.line(entry.name) }
            }
            return
        }
        let (section, row) = try context.resolve(cell, in: table)
        try context.daemon { try $0.setRowName(TableCell(table, section: section, row: row), name) }
    }
}
