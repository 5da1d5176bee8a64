// SPDX-License-Identifier: MIT
import CliptabClient

/// `cliptab tables`: the table names.
struct TablesCommand: CLICommand {
    /// The command's name, help, arguments and options.
    static let spec = CommandSpec(
        "tables", abstract: "list the table names, one a line",
        discussion: "Sorted by name (byte order). With --json: an array of strings.")

    /// Takes the checked arguments.
    init(_ arguments: ParsedArguments) {}

    /// Calls `ListTables` and prints the names.
    func run(_ context: CommandContext) throws {
        let names = try context.daemon { try $0.tables() }
        if context.options.json {
            try context.output.line(JSON.strings(names).rendered)
        } else {
            for name in names { try context.output.line(name) }
        }
    }
}
