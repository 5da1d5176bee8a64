// SPDX-License-Identifier: MIT

/// `cliptab completion bash`: the shell completion script.
struct CompletionCommand: CLICommand {
    /// The command's name, help, arguments and options.
    static let spec = CommandSpec(
        "completion", abstract: "print the bash completion script",
        discussion: """
            Made from the same declarations as the help and the parser. Table names are asked
            for from the daemon while completing. Install it with:
              mkdir -p ~/.local/share/bash-completion/completions
              cliptab completion bash > ~/.local/share/bash-completion/completions/cliptab
            """,
        arguments: [ArgumentSpec("SHELL", help: "the shell (bash)", completion: .choices(["bash"]))])

    private let shell: String

    /// Takes the checked arguments; throws a `UsageError` for one that does not parse.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        shell = arguments.argument("SHELL")
        guard shell == "bash" else {
            throw arguments.error("SHELL \"\(shell)\" is not supported; only bash is")
        }
    }

    /// Prints the script.
    func run(_ context: CommandContext) throws {
        let script = CompletionScript(commands: CommandList.all.map { $0.spec }, groups: CommandList.groups)
        try context.output.write(script.bash())
    }
}
