// SPDX-License-Identifier: MIT
import CliptabClient

/// `cliptab link TABLE [FILE]`: writes a table to a file in the folder of linked tables,
/// which then leads.
struct LinkCommand: CLICommand {
    /// The command's name, help, arguments and options.
    static let spec = CommandSpec(
        "link", abstract: "link a table to a file in your dotfiles: the file then leads",
        discussion: """
            Writes the table as a table file (YAML, as 'cliptab export --format yaml') to
            TABLE.yaml in the folder cliptabd follows ([tables] dir in cliptab.conf; by default
            ~/.config/cliptab/tables), and links them: a change saved to the file is applied to
            the table, and a change made with cliptab is written to the file. With FILE outside
            the folder, the table is written there and the folder gets a symbolic link to it.
            Refused where the file exists (nothing is overwritten); a secret table is never
            linked. Prints the file written.
            """,
        arguments: [
            .table,
            ArgumentSpec(
                "FILE", .optional, help: "the file to write (default: TABLE.yaml in the folder)",
                completion: .file),
        ])

    private let table: String
    private let file: String?

    /// Takes the checked arguments.
    init(_ arguments: ParsedArguments) {
        table = arguments.argument("TABLE")
        file = arguments.optionalArgument("FILE")
    }

    /// Calls `LinkTable` with the file made absolute.
    func run(_ context: CommandContext) throws {
        let written = try context.daemon { client in
            try client.linkTable(table, file: file.map(SnippetImportCall.absolute))
        }
        try context.output.line("linked \(table) to \(written)")
    }
}

/// `cliptab unlink TABLE`: stops following a table's file; both stay.
struct UnlinkCommand: CLICommand {
    /// The command's name, help, arguments and options.
    static let spec = CommandSpec(
        "unlink", abstract: "stop following a linked table's file (the file and the table stay)",
        discussion: """
            cliptabd stops following the table's file: the file stays in the folder as it is,
            and the table keeps its rows, changed with cliptab from now on without the file.
            cliptabd remembers this (in its data directory) as long as the file is there, over
            restarts; once the file is removed, a new file of that name is linked again. To
            link the table again, move the file aside and run 'cliptab link TABLE'.
            """,
        arguments: [.table])

    private let table: String

    /// Takes the checked arguments.
    init(_ arguments: ParsedArguments) { table = arguments.argument("TABLE") }

    /// Calls `UnlinkTable`.
    func run(_ context: CommandContext) throws {
        try context.daemon { client in try client.unlinkTable(table) }
        try context.output.line("unlinked \(table); the file and the table stay")
    }
}
