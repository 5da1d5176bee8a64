// SPDX-License-Identifier: MIT
import CliptabClient

/// `cliptab reload`: the daemon re-reads its configuration.
struct ReloadCommand: CLICommand {
    /// The command's name, help, arguments and options.
    static let spec = CommandSpec(
        "reload", abstract: "make the daemon re-read its configuration; print what it rejected",
        discussion: """
            Prints each rejected setting on a line (with --json: {"problems": [...]}) and then
            exits with status 1; a bad file changes nothing. Prints nothing when all is well.
            """)

    /// Takes the checked arguments.
    init(_ arguments: ParsedArguments) {}

    /// Calls `Reload`, prints the problems, and fails if there are any.
    func run(_ context: CommandContext) throws {
        let problems = try context.daemon { try $0.reload() }
        if context.options.json {
            try context.output.line(JSON.object([("problems", .strings(problems))]).rendered)
        } else {
            for problem in problems { try context.output.line(problem) }
        }
        if !problems.isEmpty {
            throw CLIFailure.reported(
                "cliptabd reported \(problems.count) problem\(problems.count == 1 ? "" : "s") with its configuration"
            )
        }
    }
}
