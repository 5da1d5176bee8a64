// SPDX-License-Identifier: MIT
import CliptabClient

/// `cliptab rename TABLE NEW`.
struct RenameCommand: CLICommand {
    /// The command's name, help, arguments and options.
    static let spec = CommandSpec(
        "rename", abstract: "rename a table",
        discussion: "Row ids and the revision stay as they are. Fails with TableExists if NEW is taken.",
        arguments: [.table, ArgumentSpec("NEW", help: "the new name")])

    private let table: String
    private let newName: String

    /// Takes the checked arguments.
    init(_ arguments: ParsedArguments) {
        table = arguments.argument("TABLE")
        newName = arguments.argument("NEW")
    }

    /// Calls `RenameTable`.
    func run(_ context: CommandContext) throws {
        try context.daemon { try $0.renameTable(table, to: newName) }
    }
}
