// SPDX-License-Identifier: MIT

/// A command's arguments and options as the parser found them, checked against its spec:
/// every required argument is present, no argument is extra, every option is known.
struct ParsedArguments: Sendable {
    /// The command they belong to.
    let spec: CommandSpec
    /// The positional arguments by argument name (several for a repeating one).
    var positionals: [String: [String]] = [:]
    /// The options' values by long name.
    var values: [String: String] = [:]
    /// The flags given, by long name.
    var flags: Set<String> = []

    /// Makes an empty result for `spec`.
    init(spec: CommandSpec) {
        self.spec = spec
    }

    /// The value of the required argument `name`.
    func argument(_ name: String) -> String {
        guard let value = positionals[name]?.first else {
            preconditionFailure("\(spec.name) has no required argument \(name)")
        }
        return value
    }

    /// The value of the optional argument `name`, if given.
    func optionalArgument(_ name: String) -> String? {
        positionals[name]?.first
    }

    /// Every value of the repeating argument `name`.
    func arguments(_ name: String) -> [String] {
        positionals[name] ?? []
    }

    /// The value of the option `name` (long form), if given.
    func value(_ name: String) -> String? {
        values[name]
    }

    /// True when the flag `name` (long form) was given.
    func flag(_ name: String) -> Bool {
        flags.contains(name)
    }

    /// A usage error about this command.
    func error(_ message: String) -> UsageError {
        UsageError(message, command: spec)
    }
}
