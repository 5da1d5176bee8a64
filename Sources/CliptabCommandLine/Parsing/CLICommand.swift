// SPDX-License-Identifier: MIT

/// One command of `cliptab`: its declaration, how it checks its arguments, and what it does.
///
/// Each command is one type in `Commands/`: the parser finds it by `spec.name`, checks the
/// command line against `spec`, then the type's `init` turns the words into typed values
/// (throwing a `UsageError` that names the bad argument), and `run` talks to the daemon.
protocol CLICommand {
    /// The command's name, help, arguments and options.
    static var spec: CommandSpec { get }

    /// Checks and converts the parsed words; throws a `UsageError` naming the bad one.
    init(_ arguments: ParsedArguments) throws(UsageError)

    /// Does the command; throws a `CLIFailure` (or a `BusError`) when it cannot.
    func run(_ context: CommandContext) throws

    /// The notification's summary after a success, for the commands a key is bound to
    /// (nil for the others); it names the table, never a cell's text.
    var successNotice: String? { get }
}

extension CLICommand {
    /// No success notification.
    var successNotice: String? { nil }
}

/// What the command line asks for, once parsed.
enum Invocation {
    /// Run this command with these global options.
    case run(any CLICommand, GlobalOptions)
    /// Print the version.
    case version
    /// The command line is wrong.
    case usageError(UsageError)
}

/// The top level of the parser: global options, the command's name (and group), then the
/// command's own parse.
struct CommandLineParser {
    /// The command with this name (`get`, `section add`), if there is one.
    let command: (String) -> (any CLICommand.Type)?
    /// Every command's name, for messages about the ones that do not exist.
    let names: () -> [String]
    /// The words that group several commands.
    let groups: [CommandGroupSpec]

    /// Parses the words after the program name.
    func parse(_ words: [String]) -> Invocation {
        var globals = GlobalOptions()
        var leading = ParseState()
        var index = 0
        while index < words.count, ArgumentParser.isOption(words[index]) {
            let word = words[index]
            index += 1
            if word == "--" { break }
            var consumedNext = false
            let next = index < words.count ? words[index] : nil
            let known = ArgumentParser.applyGlobal(
                word, next: next, to: &globals, result: &leading, consumedNext: &consumedNext, command: nil)
            if consumedNext { index += 1 }
            if !known && leading.error == nil {
                leading.error = UsageError("unknown option \(ArgumentParser.split(word).name)")
            }
        }
        if leading.wantsVersion { return .version }
        guard index < words.count else {
            if leading.wantsHelp { return .run(HelpCommand(topic: .general), globals) }
            return .usageError(leading.error ?? UsageError("missing command"))
        }
        let word = words[index]
        index += 1
        var name = word
        if let group = groups.first(where: { $0.name == word }) {
            guard index < words.count, !ArgumentParser.isOption(words[index]) else {
                let rest = words[index...].prefix { $0 != "--" }
                if leading.wantsHelp || rest.contains("--help") || rest.contains("-h") {
                    return .run(HelpCommand(topic: .group(group)), globals)
                }
                let subcommands = names().filter { $0.hasPrefix(group.name + " ") }
                    .map { String($0.dropFirst(group.name.count + 1)) }
                return .usageError(
                    UsageError(
                        "'\(group.name)' needs a command: \(subcommands.joined(separator: ", "))",
                        group: group)
                )
            }
            name = "\(word) \(words[index])"
            index += 1
        }
        guard let command = command(name) else {
            if leading.wantsHelp { return .run(HelpCommand(topic: .general), globals) }
            if let group = groups.first(where: { $0.name == word }) {
                return .usageError(UsageError("unknown command \"\(name)\"", group: group))
            }
            return .usageError(UsageError(unknownCommandMessage(name)))
        }
        let parsed = ArgumentParser.parse(Array(words[index...]), spec: command.spec, globals: &globals)
        if leading.wantsHelp || parsed.state.wantsHelp {
            return .run(HelpCommand(topic: .command(command.spec)), globals)
        }
        if parsed.state.wantsVersion { return .version }
        if let error = leading.error ?? parsed.state.error { return .usageError(error) }
        do {
            return .run(try command.init(parsed.arguments), globals)
        } catch {
            return .usageError(error)
        }
    }

    /// "unknown command", with the nearest command name when one is close.
    private func unknownCommandMessage(_ name: String) -> String {
        let scored = (names() + groups.map(\.name)).map { ($0, EditDistance.between($0, name)) }.filter {
            $0.1 <= 2
        }
        if let nearest = scored.min(by: { $0.1 < $1.1 }) {
            return "unknown command \"\(name)\"; did you mean '\(nearest.0)'?"
        }
        return "unknown command \"\(name)\""
    }
}

/// Levenshtein distance, for "did you mean" hints.
enum EditDistance {
    /// The number of single-character edits that turn `a` into `b`.
    static func between(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            }
            previous = current
        }
        return previous[b.count]
    }
}
