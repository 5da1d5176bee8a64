// SPDX-License-Identifier: MIT

/// `cliptab clip`: the clipboard's text.
struct ClipCommand: CLICommand {
    static let spec = CommandSpec(
        "clip", abstract: "print the clipboard's text exactly, with no newline added",
        discussion: "Reads the X11 CLIPBOARD through cliptabd, whoever holds it (as xclip -o does).")

    init(_ arguments: ParsedArguments) {}

    func run(_ context: CommandContext) throws {
        try printText(try context.call("GetClipboard").string(0), context)
    }
}
