// SPDX-License-Identifier: MIT
import CliptabClient
import CliptabContract

/// `cliptab rm-where TABLE OP OPERAND [--dry-run]`: the predicate delete.
struct RemoveWhereCommand: CLICommand {
    /// The command's name, help, arguments and options.
    static let spec = CommandSpec(
        "rm-where", abstract: "delete every row that matches; print their paths",
        discussion: """
            Prints the index paths the matching rows had before the deletion, 'S:R' one a line
            (with --json: [{"section", "row"}]); --dry-run deletes nothing. The operators:
            equals, contains, prefix, suffix, matches (a POSIX extended regular expression,
            as grep -E, anywhere in the text: anchor with ^...$), and the numeric > >= < <= ==
            != (quote them in the shell), which compare rows whose whole text is a decimal
            number. Every number greater than 2: cliptab rm-where numbers '>' 2
            """,
        arguments: [
            .table,
            ArgumentSpec(
                "OP", help: "the operator (\(ContractNames.operators.joined(separator: " ")))",
                completion: .choices(ContractNames.operators)),
            ArgumentSpec("OPERAND", help: "the text, pattern or number to compare with"),
        ],
        options: [.flag("--dry-run", help: "only print what would be deleted")])

    private let table: String
    private let op: String
    private let operand: String
    private let dryRun: Bool

    /// Takes the checked arguments; throws a `UsageError` for one that does not parse.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        table = arguments.argument("TABLE")
        op = arguments.argument("OP")
        operand = arguments.argument("OPERAND")
        dryRun = arguments.flag("--dry-run")
        guard ContractNames.operators.contains(op) else {
            throw arguments.error(
                "OP \"\(op)\" is not an operator; the operators are \(ContractNames.operators.joined(separator: " "))"
            )
        }
    }

    /// Calls `DeleteWhere` and prints the paths it reports.
    func run(_ context: CommandContext) throws {
        let paths = try context.daemon { try $0.deleteWhere(table, op: op, operand: operand, dryRun: dryRun) }
        let pairs = paths.map { ($0.section, $0.row) }
        if context.options.json {
            let list = pairs.map {
                JSON.object([("section", .integer(Int64($0.0))), ("row", .integer(Int64($0.1)))])
            }
            try context.output.line(JSON.array(list).rendered)
        } else {
            for (section, row) in pairs { try context.output.line("\(section):\(row)") }
        }
    }
}
