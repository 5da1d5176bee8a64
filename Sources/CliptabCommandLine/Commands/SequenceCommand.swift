// SPDX-License-Identifier: MIT
import CliptabClient

/// `cliptab sequence [--stop]`: where the running sequence is, or its end.
struct SequenceCommand: CLICommand {
    /// The command's name, help, arguments and options.
    static let spec = CommandSpec(
        "sequence", abstract: "show where the running sequence is (copy --sequence), or stop it",
        discussion: """
            Prints "2 of 5: TABLE @HEADER" (the row on the clipboard now, the section by its
            header or index), or "no sequence is running". With --json: {"running", "table",
            "section", "header", "position", "count"}. --stop ends it and puts back the clipboard
            from before it, as its last paste would; it prints "no sequence was running" when
            there was none.
            """,
        options: [.flag("--stop", help: "end the sequence and put the clipboard back")])

    private let stop: Bool

    /// Takes the checked arguments.
    init(_ arguments: ParsedArguments) {
        stop = arguments.flag("--stop")
    }

    /// Calls `StopSequence` or `GetSequence` and prints the outcome.
    func run(_ context: CommandContext) throws {
        if stop {
            let stopped = try context.daemon { client in try client.stopSequence() }
            if context.options.json {
                try context.output.line(JSON.object([("stopped", .bool(stopped))]).rendered)
            } else if !stopped {
                try context.output.line("no sequence was running")
            }
            return
        }
        let position = try context.daemon { client in try client.sequence() }
        guard context.options.json else {
            return try context.output.line(position?.line ?? "no sequence is running")
        }
        guard let position else {
            return try context.output.line(JSON.object([("running", .bool(false))]).rendered)
        }
        try context.output.line(
            JSON.object([
                ("running", .bool(true)), ("table", .string(position.table)),
                ("section", .integer(Int64(position.section))), ("header", .string(position.header)),
                ("position", .unsigned(UInt64(position.position))),
                ("count", .unsigned(UInt64(position.count))),
            ]).rendered)
    }
}
