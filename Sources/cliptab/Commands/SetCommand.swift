// SPDX-License-Identifier: MIT

/// `cliptab set TABLE S:R TEXT`: replaces a cell's text.
struct SetCommand: CLICommand {
    static let spec = CommandSpec(
        "set", abstract: "replace a cell's text", discussion: addressingHelp,
        arguments: [.table, .cell(), ArgumentSpec("TEXT", help: "the new text")])

    let table: String
    let cell: CellAddress
    let text: String

    init(_ arguments: ParsedArguments) throws(UsageError) {
        table = arguments.argument("TABLE")
        cell = try cellArgument(arguments)
        text = arguments.argument("TEXT")
    }

    func run(_ context: CommandContext) throws {
        let (section, row) = try context.resolve(cell, in: table)
        _ = try context.call("SetCell", [string(table), int32(section), int32(row), string(text)])
    }
}
