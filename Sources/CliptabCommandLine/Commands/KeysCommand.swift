// SPDX-License-Identifier: MIT
import CliptabClient

/// `cliptab keys [--print COMPOSITOR]`: the keys of `[keys]` and what became of each, or
/// the lines binding them in a compositor's own configuration.
struct KeysCommand: CLICommand {
    /// The compositors `--print` writes lines for (the daemon's list).
    static let compositors = ["i3", "sway", "niri", "river", "labwc", "wayfire", "hyprland"]

    /// The command's name, help, arguments and options.
    static let spec = CommandSpec(
        "keys", abstract: "list the keys of [keys] and whether cliptabd could bind them",
        discussion: """
            cliptabd binds the keys of the [keys] section of cliptab.conf itself: on X11 it
            grabs them on the root window, on sway it adds them through sway's IPC, and on
            GNOME, KDE and Hyprland the desktop binds them. One line per key: its keys, its
            action, and its state: grabbed; bound by the desktop as TRIGGER; bound in sway;
            or not bound, and why, with the line to add where cliptabd knows it. With --json:
            an array of {"keys", "action", "id", "state", "detail"}.

            --print COMPOSITOR prints the lines that bind the same keys in that compositor's
            own configuration (i3, niri, river, labwc, wayfire take bindings from there only):
            each runs cliptab, a process per press, where cliptabd's own binding runs none.
            """,
        options: [
            .value(
                "--print", "COMPOSITOR", choices: compositors,
                help: "print the lines for the compositor's configuration")
        ])

    private let compositor: String?

    /// Takes the checked arguments.
    init(_ arguments: ParsedArguments) {
        compositor = arguments.value("--print")
    }

    /// Calls `KeyBindings` and prints the keys, or the compositor's lines.
    func run(_ context: CommandContext) throws {
        let client = try context.daemon()
        let bindings: [KeyBindingStatus]
        do {
            bindings = try client.keyBindings(compositor: compositor)
        } catch {
            throw CLIFailure(error)
        }
        if compositor != nil {
            for binding in bindings { try context.output.line(binding.line) }
            return
        }
        if context.options.json {
            let entries = bindings.map { binding in
                JSON.object([
                    ("keys", .string(binding.keys)), ("action", .string(binding.action)),
                    ("id", .string(binding.id)),
                    ("state", .string(binding.state)), ("detail", .string(binding.detail)),
                ])
            }
            try context.output.line(JSON.array(entries).rendered)
            return
        }
        if bindings.isEmpty {
            try context.output.line("no keys: add a [keys] section to cliptab.conf (see cliptab.conf(5))")
        }
        for binding in bindings {
            let state =
                switch binding.state {
                case "grabbed": "grabbed"
                case "bound-by-desktop": "bound by the desktop as \(binding.detail)"
                case "bound-in-sway": "bound in sway"
                case "not-bound": "not bound: \(binding.detail)"
                default: binding.detail.isEmpty ? binding.state : "\(binding.state): \(binding.detail)"
                }
            try context.output.line("\(binding.keys)\t\(binding.action)\t\(state)")
        }
    }
}
