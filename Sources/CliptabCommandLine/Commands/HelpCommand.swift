// SPDX-License-Identifier: MIT

/// `cliptab help [COMMAND...]`: the help pages.
struct HelpCommand: CLICommand {
    /// The command's name, help, arguments and options.
    static let spec = CommandSpec(
        "help", abstract: "show help for cliptab or one of its commands",
        discussion: "'cliptab help get' shows the same page as 'cliptab get --help'.",
        arguments: [
            ArgumentSpec(
                "COMMAND", .zeroOrMore, help: "the command (such as get, or section add)",
                completion: .command)
        ])

    private let topic: HelpTopic

    /// Help about `topic`, as the parser makes it for `--help`.
    init(topic: HelpTopic) {
        self.topic = topic
    }

    /// Takes the checked arguments; throws a `UsageError` for one that does not parse.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        let name = arguments.arguments("COMMAND").joined(separator: " ")
        if name.isEmpty {
            topic = .general
        } else if let group = CommandList.groups.first(where: { $0.name == name }) {
            topic = .group(group)
        } else if let command = CommandList.command(named: name) {
            topic = .command(command.spec)
        } else {
            throw arguments.error("COMMAND \"\(name)\" is not a cliptab command")
        }
    }

    /// Prints the help page.
    func run(_ context: CommandContext) throws {
        let formatter = HelpFormatter(commands: CommandList.all.map { $0.spec }, groups: CommandList.groups)
        try context.output.write(formatter.page(topic))
    }
}
