// SPDX-License-Identifier: MIT

/// One name and the words given for it: a positional argument's values, or an option's.
struct NamedWords: Sendable {
    /// The argument's or option's name (`TABLE`, `--section`).
    let name: String
    /// The words, in order (none for a flag).
    var words: [String]
}

/// A command's arguments and options as the parser found them, checked against its spec:
/// every required argument is present, no argument is extra, every option is known.
///
/// Kept in short arrays rather than dictionaries: a command has a handful of names, and a
/// dictionary's first use costs the one-call process a runtime conformance lookup.
struct ParsedArguments: Sendable {
    /// The command they belong to.
    let spec: CommandSpec
    /// The positional arguments (several words for a repeating one).
    private(set) var positionals: [NamedWords] = []
    /// The options that were given, by long name; a flag has no words.
    private(set) var options: [NamedWords] = []

    /// Makes an empty result for `spec`.
    init(spec: CommandSpec) {
        self.spec = spec
    }

    /// Records the words of the positional argument `name`.
    mutating func setArgument(_ name: String, _ words: [String]) {
        positionals.append(NamedWords(name: name, words: words))
    }

    /// Records the option `name` (long form) with its value, nil for a flag; false when it
    /// was already given.
    mutating func setOption(_ name: String, _ value: String?, repeats: Bool = false) -> Bool {
        if let index = options.firstIndex(where: { $0.name == name }) {
            guard repeats, let value else { return false }
            options[index].words.append(value)
            return true
        }
        options.append(NamedWords(name: name, words: value.map { [$0] } ?? []))
        return true
    }

    /// The value of the required argument `name`.
    func argument(_ name: String) -> String {
        guard let value = arguments(name).first else {
            preconditionFailure("\(spec.name) has no required argument \(name)")
        }
        return value
    }

    /// The value of the optional argument `name`, if given.
    func optionalArgument(_ name: String) -> String? {
        arguments(name).first
    }

    /// Every value of the repeating argument `name`.
    func arguments(_ name: String) -> [String] {
        positionals.first { $0.name == name }?.words ?? []
    }

    /// The value of the option `name` (long form), if given.
    func value(_ name: String) -> String? {
        options.first { $0.name == name }?.words.first
    }

    /// Every value of the repeatable option `name` (long form), in order.
    func values(_ name: String) -> [String] {
        options.first { $0.name == name }?.words ?? []
    }

    /// True when the flag `name` (long form) was given.
    func flag(_ name: String) -> Bool {
        options.contains { $0.name == name }
    }

    /// A usage error about this command.
    func error(_ message: String) -> UsageError {
        UsageError(message, command: spec)
    }
}
