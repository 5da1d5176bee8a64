// SPDX-License-Identifier: MIT

/// `cliptab completion bash|zsh|fish`: the shell completion script.
struct CompletionCommand: CLICommand {
    /// The command's name, help, arguments and options.
    static let spec = CommandSpec(
        "completion", abstract: "print the completion script for bash, zsh or fish",
        discussion: """
            Made from the same declarations as the help and the parser. Table names are asked
            for from the daemon while completing. Install it with:
              mkdir -p ~/.local/share/bash-completion/completions
              cliptab completion bash > ~/.local/share/bash-completion/completions/cliptab
            zsh: write it as _cliptab into a directory of $fpath (before compinit runs):
              mkdir -p ~/.zfunc && cliptab completion zsh > ~/.zfunc/_cliptab
              and in ~/.zshrc, before compinit: fpath=(~/.zfunc $fpath)
            fish:
              cliptab completion fish > ~/.config/fish/completions/cliptab.fish
            """,
        arguments: [
            ArgumentSpec(
                "SHELL", help: "the shell: bash, zsh or fish", completion: .choices(["bash", "zsh", "fish"]))
        ])

    private let shell: String

    /// Takes the checked arguments; throws a `UsageError` for one that does not parse.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        shell = arguments.argument("SHELL")
        guard ["bash", "zsh", "fish"].contains(shell) else {
            throw arguments.error("SHELL \"\(shell)\" is not supported; bash, zsh and fish are")
        }
    }

    /// Prints the script.
    func run(_ context: CommandContext) throws {
        let script = CompletionScript(commands: CommandList.all.map { $0.spec }, groups: CommandList.groups)
        switch shell {
        case "zsh": try context.output.write(script.zsh())
        case "fish": try context.output.write(script.fish())
        default: try context.output.write(script.bash())
        }
    }
}
