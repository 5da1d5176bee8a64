// SPDX-License-Identifier: MIT
import CliptabClient

/// `cliptab create TABLE`: a new table with one empty section.
struct CreateCommand: CLICommand {
    /// The command's name, help, arguments and options.
    static let spec = CommandSpec(
        "create", abstract: "create a table (it starts with one empty section)",
        discussion: """
            A name is 1 to 255 bytes of UTF-8 without control characters or '/'. Fails with
            TableExists if the name is taken.
            """,
        arguments: [ArgumentSpec("TABLE", help: "the new table's name")])

    private let table: String

    /// Takes the checked arguments.
    init(_ arguments: ParsedArguments) {
        table = arguments.argument("TABLE")
    }

    /// Calls `CreateTable`.
    func run(_ context: CommandContext) throws {
        try context.daemon { try $0.createTable(table) }
    }
}
