// SPDX-License-Identifier: MIT
import CliptabClient

/// `cliptab fill TABLE S:R [--count N] [--then tab|enter|none]`: rows typed into the focused
/// window one by one, so that a form's fields fill with one key.
struct FillCommand: CLICommand {
    /// The command's name, help, arguments and options.
    static let spec = CommandSpec(
        "fill", abstract: "paste rows into the focused window one by one, Tab between them (a form)",
        discussion: """
            cliptabd pastes the rows from S:R to the end of its section (or --count N of them)
            into the focused window as --paste pastes one: it sends the paste key, waits until
            the window has fetched the row, then sends Tab (--then enter: Return; --then none:
            nothing) and the next row. The clipboard is put back as it was at the end. Nothing is
            printed; exit 0 when every row was fetched, 1 at the first that was not, with the
            reason (row 3 of 5: …). The rows of a secret table carry the password hint, as a
            paste does. The whole fill must end within --timeout (default 5 s): give a longer one
            for long sections.
            """ + "\n\n" + addressingHelp,
        arguments: [.table, .cell(help: "the first row")],
        options: [
            .value("--count", "N", help: "fill N rows (default: to the end of the section)"),
            .value(
                "--then", "KEY", choices: ["tab", "enter", "none"],
                help: "the key between two rows (default tab)"),
        ])

    private let table: String
    private let cell: CellAddress
    private let count: UInt64?
    private let then: String?

    /// Names the table only: a secret's text must never reach a notification.
    var successNotice: String? { "Filled from \(table)" }

    /// Takes the checked arguments; throws a `UsageError` for one that does not parse.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        table = arguments.argument("TABLE")
        cell = try cellArgument(arguments)
        then = arguments.value("--then")
        if let text = arguments.value("--count") {
            guard let number = UInt64(text), number > 0 else {
                throw arguments.error("--count takes a number of rows greater than 0, not \"\(text)\"")
            }
            count = number
        } else {
            count = nil
        }
    }

    /// Resolves the address and calls `FillToFocus`; a fill that stopped is exit 1 with the
    /// daemon's reason.
    func run(_ context: CommandContext) throws {
        let (section, row) = try context.resolve(cell, in: table)
        let client = try context.daemon()
        let outcome: FillOutcome
        do throws(ClientFailure) {
            outcome = try client.fill(table, section: section, row: row, count: count, then: then)
        } catch {
            throw CLIFailure(error)
        }
        guard outcome.reason.isEmpty else { throw CLIFailure.reported(outcome.reason) }
    }
}
