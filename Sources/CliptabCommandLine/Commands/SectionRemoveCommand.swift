// SPDX-License-Identifier: MIT
import CliptabClient

/// `cliptab section rm TABLE S...`: deletes sections in one batch.
struct SectionRemoveCommand: CLICommand {
    /// The command's name, help, arguments and options.
    static let spec = CommandSpec(
        "section rm", abstract: "delete sections with their rows (one batch: all or none)",
        discussion: """
            Every S names a section as the table is before the deletion (an index, negative
            from the end, or @HEADER for the first section with that header); they are removed
            together, and if any is wrong none is.
            """,
        arguments: [.table, .section("S", .oneOrMore, help: "the sections")])

    private let table: String
    private let sections: [SectionAddress]

    /// Takes the checked arguments; throws a `UsageError` for one that does not parse.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        table = arguments.argument("TABLE")
        var sections: [SectionAddress] = []
        for word in arguments.arguments("S") {
            sections.append(try SectionAddress.parse(word, argument: "S", command: arguments.spec))
        }
        self.sections = sections
    }

    /// Resolves every section, then calls `DeleteSections` once.
    func run(_ context: CommandContext) throws {
        var indexes: [Int32] = []
        for section in sections { indexes.append(try context.resolve(section, in: table)) }
        try context.daemon { try $0.deleteSections(table, indexes) }
    }
}
