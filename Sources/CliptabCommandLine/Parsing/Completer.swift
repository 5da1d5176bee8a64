// SPDX-License-Identifier: MIT

/// The shell completion's answers, found from the same `CommandSpec`s the parser uses.
///
/// `cliptab __complete WORD...` (hidden; the shells' short scripts call it) gets the words
/// after `cliptab` up to the cursor, the last one being the word typed so far, and finds,
/// as the parser would read the line: the command word (past the global options), an
/// option's value, an option name, or the kind of the positional argument under the cursor.
struct Completer {
    /// What to offer for the word under the cursor.
    enum Answer: Equatable {
        /// These words (already those that start with the typed prefix).
        case words([String])
        /// The file names the shell itself completes.
        case files
        /// The daemon's table names that start with the prefix.
        case tables(prefix: String)
        /// The names of the rows of `table` that start with the prefix.
        case rows(table: String, prefix: String)
    }

    /// Every command.
    let commands: [CommandSpec]
    /// The groups.
    let groups: [CommandGroupSpec]

    /// The answer for `words`: the words after `cliptab`, the last one being typed.
    func answer(_ words: [String]) -> Answer {
        var before = words
        let typed = before.popLast() ?? ""
        let previous = before.last
        let globalNames = GlobalOptions.specs.flatMap(Self.names)
        // The command word: the first word that is not a global option (or the one after --).
        var index = 0
        var command: String?
        while index < before.count {
            let word = before[index]
            index += 1
            if word == "--timeout" {
                index += 1
            } else if word == "--" {
                if index < before.count { command = before[index] }
                index += 1
                break
            } else if !ArgumentParser.isOption(word) {
                command = word
                break
            }
        }
        guard var name = command else {
            if previous == "--timeout" { return .words([]) }
            return typed.hasPrefix("-") ? filtered(globalNames, typed) : filtered(topWords, typed)
        }
        if groups.contains(where: { $0.name == name }) {
            guard index < before.count else { return filtered(subcommands(of: name), typed) }
            name += " " + before[index]
            index += 1
        }
        guard let spec = commands.first(where: { $0.name == name }) else { return .words([]) }
        if previous == "--timeout" { return .words([]) }
        if before.count > index, let previous, let option = spec.option(named: previous), option.takesValue {
            return answer(for: option.completion, typed: typed, first: nil)
        }
        if ArgumentParser.isOption(typed) || typed == "-" {
            return filtered(spec.options.flatMap(Self.names) + globalNames, typed)
        }
        // The positional words before the cursor, counted as the parser counts them.
        let valueNames = Set(["--timeout"] + spec.options.filter(\.takesValue).flatMap(Self.names))
        var positional: [String] = []
        var skip = false
        var ended = false
        for word in before[index...] {
            if skip {
                skip = false
                continue
            }
            if !ended && word == "--" {
                ended = true
                continue
            }
            if !ended && ArgumentParser.isOption(word) {
                skip = !word.contains("=") && valueNames.contains(word)
                continue
            }
            positional.append(word)
        }
        let fixed = spec.arguments.filter { $0.arity == .required || $0.arity == .optional }
        let kind: CompletionKind
        if positional.count < fixed.count {
            kind = fixed[positional.count].completion
        } else if let last = spec.arguments.last, last.arity == .oneOrMore || last.arity == .zeroOrMore {
            kind = last.completion
        } else {
            kind = .none
        }
        return answer(for: kind, typed: typed, first: positional.first)
    }

    /// The answer for an argument of `kind`; `first` is the command's first argument.
    private func answer(for kind: CompletionKind, typed: String, first: String?) -> Answer {
        switch kind {
        case .none: return .words([])
        case .table: return .tables(prefix: typed)
        case .file: return .files
        case .row:
            guard let first else { return .words([]) }
            return .rows(table: first, prefix: typed)
        case .choices(let words): return filtered(words, typed)
        case .command: return filtered(topWords, typed)
        }
    }

    /// The first word of every command, in order (the group words once).
    var topWords: [String] {
        var seen: Set<String> = []
        return commands.map { String($0.name.split(separator: " ")[0]) }.filter { seen.insert($0).inserted }
    }

    /// The subcommands of the group `group`, without the group's word.
    func subcommands(of group: String) -> [String] {
        commands.filter { $0.name.hasPrefix(group + " ") }.map { String($0.name.dropFirst(group.count + 1)) }
    }

    /// An option's names: the long one, then the short one.
    private static func names(_ option: OptionSpec) -> [String] {
        [option.name] + (option.shortName.map { [$0] } ?? [])
    }

    /// The words of `words` that start with `prefix`.
    private func filtered(_ words: [String], _ prefix: String) -> Answer {
        .words(words.filter { $0.hasPrefix(prefix) })
    }
}
