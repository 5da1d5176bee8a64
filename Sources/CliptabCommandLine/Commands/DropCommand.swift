// SPDX-License-Identifier: MIT
import CliptabClient

/// `cliptab drop TABLE`: deletes a table and everything in it.
struct DropCommand: CLICommand {
    /// The command's name, help, arguments and options.
    static let spec = CommandSpec(
        "drop", abstract: "delete a table with all its sections and rows", arguments: [.table])

    private let table: String

    /// Takes the checked arguments.
    init(_ arguments: ParsedArguments) {
        table = arguments.argument("TABLE")
    }

    /// Calls `DropTable`.
    func run(_ context: CommandContext) throws {
        try context.daemon { try $0.dropTable(table) }
    }
}
