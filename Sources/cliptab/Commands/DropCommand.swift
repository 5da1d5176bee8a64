// SPDX-License-Identifier: MIT

/// `cliptab drop TABLE`: deletes a table and everything in it.
struct DropCommand: CLICommand {
    static let spec = CommandSpec(
        "drop", abstract: "delete a table with all its sections and rows", arguments: [.table])

    let table: String

    init(_ arguments: ParsedArguments) {
        table = arguments.argument("TABLE")
    }

    func run(_ context: CommandContext) throws {
        _ = try context.call("DropTable", [string(table)])
    }
}
