// SPDX-License-Identifier: MIT
import CliptabContract

/// `cliptab name TABLE S:R NAME` (or `--clear`): names a row, so that a key binding can
/// address it however it moves.
struct NameCommand: CLICommand {
    /// The command's name, help, arguments and options.
    static let spec = CommandSpec(
        "name", abstract: "name a row (or --clear its name), to address it by that name",
        discussion: """
            A name is 1–64 bytes of letters, digits, '_', '.' and '-', starting with a letter
            or '_', and unique within the table. It stays with the row through moves and
            edits, so 'cliptab copy snippets sig' keeps copying the same row wherever it
            goes. Naming a row another row's name is refused (NameInUse).
            """ + "\n\n" + addressingHelp,
        arguments: [.table, .cell(), ArgumentSpec("NAME", .optional, help: "the row's new name")],
        options: [.flag("--clear", help: "remove the row's name")])

    private let table: String
    private let cell: CellAddress
    private let name: String

    /// Takes the checked arguments; throws a `UsageError` for one that does not parse.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        table = arguments.argument("TABLE")
        cell = try cellArgument(arguments)
        let given = arguments.arguments("NAME").first
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

    /// Resolves the address and calls `SetRowName`.
    func run(_ context: CommandContext) throws {
        let (section, row) = try context.resolve(cell, in: table)
        _ = try context.call("SetRowName", [string(table), int32(section), int32(row), string(name)])
    }
}
