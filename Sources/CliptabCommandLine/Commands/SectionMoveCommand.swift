// SPDX-License-Identifier: MIT
import CliptabClient

/// `cliptab section mv TABLE FROM TO`.
struct SectionMoveCommand: CLICommand {
    /// The command's name, help, arguments and options.
    static let spec = CommandSpec(
        "section mv", abstract: "move a section",
        discussion: """
            The section at FROM is taken out, then put back so that its index is TO (as UIKit's
            moveSection:toSection:). With sections A B C, 'section mv T 0 2' gives B C A.
            """,
        arguments: [
            .table, .section("FROM", help: "the section to move"),
            .section("TO", help: "its index afterwards"),
        ])

    private let table: String
    private let from: SectionAddress
    private let to: SectionAddress

    /// Takes the checked arguments; throws a `UsageError` for one that does not parse.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        table = arguments.argument("TABLE")
        from = try sectionArgument(arguments, "FROM")
        to = try sectionArgument(arguments, "TO")
    }

    /// Resolves both sections and calls `MoveSection`.
    func run(_ context: CommandContext) throws {
        let source = try context.resolve(from, in: table)
        let destination = try context.resolve(to, in: table)
        try context.daemon { try $0.moveSection(table, from: source, to: destination) }
    }
}
