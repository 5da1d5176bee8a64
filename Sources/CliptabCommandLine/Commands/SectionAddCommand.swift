// SPDX-License-Identifier: MIT
import CliptabClient

/// `cliptab section add TABLE [--at N] [--header H] [--footer F]`.
struct SectionAddCommand: CLICommand {
    /// The command's name, help, arguments and options.
    static let spec = CommandSpec(
        "section add", abstract: "insert a section (default: at the end); print its index",
        discussion: """
            N is an insertion position: 0 up to the section count, or -1 (the default) to
            append. Prints the new section's final index (with --json: {"index": N}).
            """,
        arguments: [.table],
        options: [
            .value("--at", "N", help: "where the section goes (default -1: at the end)"),
            .value("--header", "H", help: "its header title (default none)"),
            .value("--footer", "F", help: "its footer title (default none)"),
        ])

    private let table: String
    private let index: Int32
    private let header: String
    private let footer: String

    /// Takes the checked arguments; throws a `UsageError` for one that does not parse.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        table = arguments.argument("TABLE")
        if let word = arguments.value("--at") {
            guard let index = Int32(word) else {
                throw arguments.error("--at takes an integer (-1 appends), not \"\(word)\"")
            }
            self.index = index
        } else {
            index = -1
        }
        header = arguments.value("--header") ?? ""
        footer = arguments.value("--footer") ?? ""
    }

    /// Calls `InsertSection` and prints the final index.
    func run(_ context: CommandContext) throws {
        let final = try context.daemon {
            try $0.insertSection(table, at: index, header: header, footer: footer)
        }
        if context.options.json {
            try context.output.line(JSON.object([("index", .integer(Int64(final)))]).rendered)
        } else {
            try context.output.line("\(final)")
        }
    }
}
