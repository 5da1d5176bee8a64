// SPDX-License-Identifier: MIT

/// `cliptab section mv TABLE FROM TO`.
struct SectionMoveCommand: CLICommand {
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

    let table: String
    let from: SectionAddress
    let to: SectionAddress

    init(_ arguments: ParsedArguments) throws(UsageError) {
        table = arguments.argument("TABLE")
        from = try sectionArgument(arguments, "FROM")
        to = try sectionArgument(arguments, "TO")
    }

    func run(_ context: CommandContext) throws {
        let source = try context.resolve(from, in: table)
        let destination = try context.resolve(to, in: table)
        _ = try context.call("MoveSection", [string(table), int32(source), int32(destination)])
    }
}
