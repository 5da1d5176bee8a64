// SPDX-License-Identifier: MIT
import CliptabClient

/// `cliptab section title TABLE S [--header H] [--footer F]`.
struct SectionTitleCommand: CLICommand {
    /// The command's name, help, arguments and options.
    static let spec = CommandSpec(
        "section title", abstract: "set a section's header and/or footer title",
        discussion: """
            An empty title removes it (--header ''). Given both, the header is set first, then
            the footer (two changes).
            """,
        arguments: [.table, .section()],
        options: [
            .value("--header", "H", help: "the new header title"),
            .value("--footer", "F", help: "the new footer title"),
        ])

    private let table: String
    private let section: SectionAddress
    private let header: String?
    private let footer: String?

    /// Takes the checked arguments; throws a `UsageError` for one that does not parse.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        table = arguments.argument("TABLE")
        section = try sectionArgument(arguments)
        header = arguments.value("--header")
        footer = arguments.value("--footer")
        if header == nil && footer == nil { throw arguments.error("give --header H, --footer F or both") }
    }

    /// Resolves the section, then calls `SetHeader` and/or `SetFooter`.
    func run(_ context: CommandContext) throws {
        let index = try context.resolve(section, in: table)
        if let header { try context.daemon { try $0.setHeader(table, section: index, header) } }
        if let footer { try context.daemon { try $0.setFooter(table, section: index, footer) } }
    }
}
