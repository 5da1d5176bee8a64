// SPDX-License-Identifier: MIT
import CliptabClient

/// `cliptab rm TABLE S:R...`: deletes rows in one batch.
struct RemoveCommand: CLICommand {
    /// The command's name, help, arguments and options.
    static let spec = CommandSpec(
        "rm", abstract: "delete rows (one batch: all or none)",
        discussion: """
            Every S:R names a row as the table is before the deletion; they are removed
            together, and if any is wrong (out of range, twice) none is.
            """ + "\n\n" + addressingHelp,
        arguments: [.table, .cell("S:R", .oneOrMore, help: "the rows")])

    private let table: String
    private let cells: [CellAddress]

    /// Takes the checked arguments; throws a `UsageError` for one that does not parse.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        table = arguments.argument("TABLE")
        var cells: [CellAddress] = []
        for word in arguments.arguments("S:R") {
            cells.append(try CellAddress.parse(word, argument: "S:R", command: arguments.spec))
        }
        self.cells = cells
    }

    /// Resolves every address, then calls `DeleteRows` once.
    func run(_ context: CommandContext) throws {
        var sections: [Int32] = []
        var rows: [Int32] = []
        for cell in cells {
            let (section, row) = try context.resolve(cell, in: table)
            sections.append(section)
            rows.append(row)
        }
        try context.daemon { try $0.deleteRows(table, sections: sections, rows: rows) }
    }
}
