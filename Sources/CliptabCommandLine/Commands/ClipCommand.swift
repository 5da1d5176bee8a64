// SPDX-License-Identifier: MIT
import CliptabClient

/// `cliptab clip`: the clipboard's text.
struct ClipCommand: CLICommand {
    /// The command's name, help, arguments and options.
    static let spec = CommandSpec(
        "clip", abstract: "print the clipboard's text exactly, with no newline added",
        discussion: """
            Reads the clipboard (X11 or Wayland) through cliptabd, whoever holds it (as xclip -o or
            wl-paste does).
            """)

    /// Takes the checked arguments.
    init(_ arguments: ParsedArguments) {}

    /// Calls `GetClipboard` and prints the text as it is.
    func run(_ context: CommandContext) throws {
        try printText(try context.daemon { try $0.clipboard() }, context)
    }
}
