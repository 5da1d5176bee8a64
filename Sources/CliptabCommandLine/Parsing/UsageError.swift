// SPDX-License-Identifier: MIT

/// A command line that cannot be run as written: the message names the bad argument.
struct UsageError: Error, Equatable, Sendable {
    /// What was wrong, naming the argument or option.
    let message: String
    /// The usage line to print after the message (without `usage: `).
    let usage: String
    /// The help command that explains more (`cliptab help get`).
    let helpHint: String

    /// Makes an error about `command`, or about the command line as a whole when nil.
    init(_ message: String, command: CommandSpec? = nil) {
        self.message = message
        if let command {
            usage = command.usage
            helpHint = "cliptab help \(command.name)"
        } else {
            usage = GlobalOptions.usage
            helpHint = "cliptab --help"
        }
    }

    /// Makes an error about a group's missing or unknown subcommand.
    init(_ message: String, group: CommandGroupSpec) {
        self.message = message
        usage = "cliptab \(group.name) COMMAND ..."
        helpHint = "cliptab help \(group.name)"
    }

    /// The text for standard error: the message, the usage line, and where to read more.
    var report: String {
        "cliptab: \(message)\nusage: \(usage)\nSee '\(helpHint)'.\n"
    }
}
