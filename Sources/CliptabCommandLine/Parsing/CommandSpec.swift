// SPDX-License-Identifier: MIT

/// What the shell completion offers for an argument or an option's value.
enum CompletionKind: Equatable, Sendable {
    /// Nothing to offer.
    case none
    /// The names of the daemon's tables, asked for with `ListTables` while completing.
    case table
    /// File names.
    case file
    /// The names of the rows of the table named by the first argument, asked for with
    /// `GetRowNames` while completing.
    case row
    /// One of a fixed list of words.
    case choices([String])
    /// A command name (for `help`).
    case command
}

/// How often a positional argument occurs.
enum Arity: Equatable, Sendable {
    /// Exactly once.
    case required
    /// Once or not at all; only the last arguments may be optional.
    case optional
    /// At least once; only the last argument may repeat.
    case oneOrMore
    /// Any number of times; only the last argument may repeat.
    case zeroOrMore
}

/// One positional argument of a command.
struct ArgumentSpec: Sendable {
    /// The name shown in usage and help, in capitals (`TABLE`, `S:R`).
    let name: String
    /// How often it occurs.
    let arity: Arity
    /// One line of help.
    let help: String
    /// What completion offers for it.
    let completion: CompletionKind

    /// Makes an argument description.
    init(_ name: String, _ arity: Arity = .required, help: String, completion: CompletionKind = .none) {
        self.name = name
        self.arity = arity
        self.help = help
        self.completion = completion
    }

    /// The argument as the usage line shows it.
    var usage: String {
        switch arity {
        case .required: return name
        case .optional: return "[\(name)]"
        case .oneOrMore: return "\(name)..."
        case .zeroOrMore: return "[\(name)...]"
        }
    }
}

/// One option of a command: a flag, or a name that takes a value.
struct OptionSpec: Sendable {
    /// The long name with its dashes (`--section`).
    let name: String
    /// A one-letter alias with its dash (`-o`), if any.
    let shortName: String?
    /// The value's placeholder (`S`); nil for a flag.
    let valueName: String?
    /// The values allowed, when the option takes one of a fixed list.
    let choices: [String]?
    /// One line of help.
    let help: String
    /// What completion offers for its value.
    let completion: CompletionKind
    /// True when it may be given more than once (each value kept, in order).
    var repeats = false

    /// Makes a flag.
    static func flag(_ name: String, short: String? = nil, help: String) -> OptionSpec {
        OptionSpec(
            name: name, shortName: short, valueName: nil, choices: nil, help: help, completion: .none)
    }

    /// Makes an option that takes a value, optionally one of `choices`.
    static func value(
        _ name: String, _ valueName: String, short: String? = nil, choices: [String]? = nil, help: String,
        completion: CompletionKind = .none
    ) -> OptionSpec {
        OptionSpec(
            name: name, shortName: short, valueName: valueName, choices: choices, help: help,
            completion: choices.map { .choices($0) } ?? completion)
    }

    /// Makes an option that takes a value and may be given more than once.
    static func repeatedValue(_ name: String, _ valueName: String, help: String) -> OptionSpec {
        var option = value(name, valueName, help: help)
        option.repeats = true
        return option
    }

    /// True when the option takes a value.
    var takesValue: Bool { valueName != nil }

    /// The option as the usage line shows it (`[--section S]`).
    var usage: String {
        guard let valueName else { return "[\(name)]" }
        return "[\(name) \(choices?.joined(separator: "|") ?? valueName)]"
    }

    /// The option as the help's left column shows it (`-o, --output FILE`).
    var synopsis: String {
        let names = (shortName.map { "\($0), " } ?? "") + name
        guard let valueName else { return names }
        return "\(names) \(choices?.joined(separator: "|") ?? valueName)"
    }
}

/// The declaration of one command: its name, its help, its arguments and its options.
///
/// Usage lines, help pages, argument checking and the shell completion (`Completer`) are
/// all made from it.
struct CommandSpec: Sendable {
    /// The words that select the command (`get`, or `section add`).
    let name: String
    /// One line saying what the command does, for the command list.
    let abstract: String
    /// More paragraphs for the command's help page (may be empty).
    let discussion: String
    /// The positional arguments, in order.
    let arguments: [ArgumentSpec]
    /// The command's own options (the global ones are added by the parser).
    let options: [OptionSpec]

    /// Makes a command description.
    init(
        _ name: String, abstract: String, discussion: String = "", arguments: [ArgumentSpec] = [],
        options: [OptionSpec] = []
    ) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.arguments = arguments
        self.options = options
    }

    /// The usage line, without the leading `usage: `.
    var usage: String {
        (["cliptab", name] + arguments.map(\.usage) + options.map(\.usage)).joined(separator: " ")
    }

    /// The option named `name` (long or short), if the command has it.
    func option(named name: String) -> OptionSpec? {
        options.first { $0.name == name || $0.shortName == name }
    }
}

/// A word that groups several commands (`section`), with its own line in the command list.
struct CommandGroupSpec: Sendable {
    /// The group's word.
    let name: String
    /// One line saying what its commands do.
    let abstract: String
}
