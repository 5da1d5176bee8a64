// SPDX-License-Identifier: MIT

/// `cliptab menu [TABLE]`: the desktop popup, which does not exist yet.
struct MenuCommand: CLICommand {
    /// The command's name, help, arguments and options.
    static let spec = CommandSpec(
        "menu", abstract: "the desktop popup menu (not available yet: exits 1)",
        discussion: """
            The popup that lists a table's cells and copies the chosen one has not been built
            yet. Until then this command says so and exits with status 1 without contacting
            the daemon; use 'cliptab show TABLE' and 'cliptab copy TABLE S:R'.
            """,
        arguments: [ArgumentSpec("TABLE", .optional, help: "the table to show", completion: .table)])

    /// Takes the checked arguments.
    init(_ arguments: ParsedArguments) {}

    /// Says that the popup does not exist yet; never contacts the daemon.
    func run(_ context: CommandContext) throws {
        throw CLIFailure.reported(
            "the desktop popup menu is not available yet; use 'cliptab show TABLE' and 'cliptab copy TABLE S:R'"
        )
    }
}
