// SPDX-License-Identifier: MIT

/// `cliptab completion bash|zsh|fish`: the shell completion script.
struct CompletionCommand: CLICommand {
    /// The command's name, help, arguments and options.
    static let spec = CommandSpec(
        "completion", abstract: "print the completion script for bash, zsh or fish",
        discussion: """
            The script hands the command line to cliptab itself, which answers from the same
            declarations as the help and the parser. Table and row names are asked for from
            the daemon while completing. Install it with:
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
        switch shell {
        case "zsh": try context.output.write(CompletionScript.zsh())
        case "fish": try context.output.write(CompletionScript.fish())
        default: try context.output.write(CompletionScript.bash())
        }
    }
}
