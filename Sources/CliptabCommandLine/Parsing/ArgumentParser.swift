// SPDX-License-Identifier: MIT

/// What parsing found besides arguments: the first problem, and the requests for help or
/// the version that win over problems.
struct ParseState {
    /// The first problem found, if any.
    var error: UsageError?
    /// True when `--help` or `-h` appeared (it wins over any problem).
    var wantsHelp = false
    /// True when `--version` appeared.
    var wantsVersion = false

    /// Keeps the first error only: later ones are often consequences of it.
    mutating func record(_ error: UsageError) {
        if self.error == nil { self.error = error }
    }
}

/// The result of parsing one command's part of the command line.
struct ArgumentParseResult {
    /// The arguments (complete only when `state.error` is nil).
    var arguments: ParsedArguments
    /// Problems and requests found.
    var state = ParseState()
}

/// Splits a command's words into options and positional arguments, getopt style.
///
/// - An option's value is the next word, whatever it looks like, or follows `=`
///   (`--header=-x`).
/// - `--` ends the options: every later word is an argument.
/// - A word that starts with `-` and a digit or `.` (`-1:-1`, `-2.5`), and `-` alone, are
///   arguments, so that negative indexes and numbers need no `--`.
/// - The global options (`--json`, `--timeout`, `--notify`, `--help`, `--version`) are accepted anywhere
///   before `--`.
enum ArgumentParser {
    /// True when `word` is an option rather than an argument.
    static func isOption(_ word: String) -> Bool {
        let bytes = Array(word.utf8)
        guard bytes.count >= 2, bytes[0] == UInt8(ascii: "-") else { return false }
        let second = bytes[1]
        return !(second >= UInt8(ascii: "0") && second <= UInt8(ascii: "9")) && second != UInt8(ascii: ".")
    }

    /// Applies the global option `word`, or returns false when it is not one.
    ///
    /// A value comes after `=` or from `next`; `consumedNext` says whether `next` was used.
    static func applyGlobal(
        _ word: String, next: String?, to globals: inout GlobalOptions, result: inout ParseState,
        consumedNext: inout Bool, command: CommandSpec?
    ) -> Bool {
        let (name, inlineValue) = split(word)
        switch name {
        case "--json":
            if inlineValue != nil { result.record(UsageError("--json takes no value", command: command)) }
            globals.json = true
        case "--help", "-h":
            result.wantsHelp = true
        case "--version":
            result.wantsVersion = true
        case "--notify":
            // The value only ever follows `=`: a bare --notify must not eat the command's name.
            do {
                globals.notify = try NotifyPolicy.parse(inlineValue ?? NotifyPolicy.failures.rawValue)
            } catch {
                result.record(UsageError(error.message, command: command))
            }
        case "--timeout":
            var value = inlineValue
            if value == nil, let next {
                value = next
                consumedNext = true
            }
            guard let value else {
                result.record(UsageError("--timeout needs a value (SECONDS)", command: command))
                return true
            }
            do {
                globals.timeoutMilliseconds = try GlobalOptions.timeout(from: value)
            } catch {
                result.record(UsageError(error.message, command: command))
            }
        default:
            return false
        }
        return true
    }

    /// Parses `words` (everything after the command's name) against `spec`.
    static func parse(_ words: [String], spec: CommandSpec, globals: inout GlobalOptions)
        -> ArgumentParseResult
    {
        var result = ArgumentParseResult(arguments: ParsedArguments(spec: spec))
        var positional: [String] = []
        var index = 0
        var optionsEnded = false
        while index < words.count {
            let word = words[index]
            index += 1
            if optionsEnded || !isOption(word) {
                positional.append(word)
                continue
            }
            if word == "--" {
                optionsEnded = true
                continue
            }
            var consumedNext = false
            let next = index < words.count ? words[index] : nil
            if applyGlobal(
                word, next: next, to: &globals, result: &result.state, consumedNext: &consumedNext,
                command: spec)
            {
                if consumedNext { index += 1 }
                continue
            }
            let (name, inlineValue) = split(word)
            guard let option = spec.option(named: name) else {
                result.state.record(UsageError("unknown option \(name) for '\(spec.name)'", command: spec))
                continue
            }
            guard let valueName = option.valueName else {
                if inlineValue != nil {
                    result.state.record(UsageError("\(option.name) takes no value", command: spec))
                }
                if !result.arguments.setOption(option.name, nil) {
                    result.state.record(UsageError("\(option.name) is given more than once", command: spec))
                }
                continue
            }
            var value = inlineValue
            if value == nil, let next {
                value = next
                index += 1
            }
            guard let value else {
                result.state.record(UsageError("\(option.name) needs a value (\(valueName))", command: spec))
                continue
            }
            if let choices = option.choices, !choices.contains(value) {
                result.state.record(
                    UsageError(
                        "\(option.name) takes one of \(choices.joined(separator: ", ")), not \"\(value)\"",
                        command: spec))
            }
            if !result.arguments.setOption(option.name, value, repeats: option.repeats) {
                result.state.record(UsageError("\(option.name) is given more than once", command: spec))
            }
        }
        assign(positional, to: &result)
        return result
    }

    /// Hands the positional words to the spec's arguments in order.
    private static func assign(_ words: [String], to result: inout ArgumentParseResult) {
        let spec = result.arguments.spec
        var remaining = words[...]
        for argument in spec.arguments {
            switch argument.arity {
            case .required:
                guard let word = remaining.popFirst() else {
                    result.state.record(UsageError("missing argument \(argument.name)", command: spec))
                    return
                }
                result.arguments.setArgument(argument.name, [word])
            case .optional:
                if let word = remaining.popFirst() { result.arguments.setArgument(argument.name, [word]) }
            case .oneOrMore, .zeroOrMore:
                if remaining.isEmpty && argument.arity == .oneOrMore {
                    result.state.record(UsageError("missing argument \(argument.name)", command: spec))
                    return
                }
                result.arguments.setArgument(argument.name, Array(remaining))
                remaining = []
            }
        }
        if let extra = remaining.first {
            result.state.record(UsageError("unexpected argument \"\(extra)\"", command: spec))
        }
    }

    /// Splits `--name=value` into its name and value.
    static func split(_ word: String) -> (name: String, value: String?) {
        guard word.hasPrefix("--"), let equals = word.firstIndex(of: "=") else { return (word, nil) }
        return (String(word[..<equals]), String(word[word.index(after: equals)...]))
    }

}
