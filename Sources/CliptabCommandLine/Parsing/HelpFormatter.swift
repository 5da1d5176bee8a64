// SPDX-License-Identifier: MIT

/// What a help page is about.
enum HelpTopic: Sendable {
    /// The whole program.
    case general
    /// A group of commands (`section`).
    case group(CommandGroupSpec)
    /// One command.
    case command(CommandSpec)
}

/// Help pages made from the command declarations.
struct HelpFormatter {
    /// Every command.
    let commands: [CommandSpec]
    /// The groups.
    let groups: [CommandGroupSpec]

    /// The text of the page about `topic`.
    func page(_ topic: HelpTopic) -> String {
        switch topic {
        case .general: return general()
        case .group(let group): return page(for: group)
        case .command(let spec): return page(for: spec)
        }
    }

    private func general() -> String {
        var text = "usage: \(GlobalOptions.usage)\n\n"
        text += """
            cliptab is the command-line client of cliptabd, which keeps named tables of text
            (sections with header and footer titles, holding rows) and puts cells on the X11
            clipboard. It talks to cliptabd over the session bus and never opens its store.

            commands:

            """
        text += columns(commands.map { ($0.name, $0.abstract) })
        text += "\nglobal options (before or after the command):\n"
        text += columns(GlobalOptions.specs.map { ($0.synopsis, $0.help) })
        text += "\n" + addressingHelp + "\n\n"
        text += """
            Exit status: 0 success; 1 the daemon refused (its message and D-Bus error name on
            stderr) or a file could not be read or written; 2 the command line is wrong; 69 the
            bus or cliptabd cannot be reached or did not answer within the timeout.

            See 'cliptab help COMMAND' (or 'cliptab COMMAND --help') for a command's arguments.

            """
        return text
    }

    private func page(for group: CommandGroupSpec) -> String {
        var text = "usage: cliptab \(group.name) COMMAND ...\n\n\(sentence(group.abstract))\n\ncommands:\n"
        text += columns(
            commands.filter { $0.name.hasPrefix(group.name + " ") }.map { ($0.name, $0.abstract) })
        text += "\nSee 'cliptab help \(group.name) COMMAND' for a command's arguments.\n"
        return text
    }

    private func page(for spec: CommandSpec) -> String {
        var text = "usage: \(spec.usage)\n\n\(sentence(spec.abstract))\n"
        if !spec.arguments.isEmpty {
            text += "\narguments:\n" + columns(spec.arguments.map { ($0.name, $0.help) })
        }
        if !spec.options.isEmpty {
            text += "\noptions:\n" + columns(spec.options.map { ($0.synopsis, $0.help) })
        }
        if !spec.discussion.isEmpty { text += "\n\(spec.discussion)\n" }
        text +=
            "\nGlobal options: --json, --timeout SECONDS, --notify[=WHEN], -h/--help, --version (see 'cliptab --help').\n"
        return text
    }

    /// `abstract` as a sentence: capital first letter, final period.
    private func sentence(_ abstract: String) -> String {
        guard let first = abstract.first else { return abstract }
        return first.uppercased() + abstract.dropFirst() + "."
    }

    /// Two columns, the second lined up, each row indented by two spaces.
    private func columns(_ rows: [(String, String)]) -> String {
        let width = rows.map(\.0.count).max() ?? 0
        return rows.map { "  " + $0.0 + String(repeating: " ", count: width - $0.0.count + 3) + $0.1 + "\n" }
            .joined()
    }
}
