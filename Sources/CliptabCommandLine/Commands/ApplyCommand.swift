// SPDX-License-Identifier: MIT
import CliptabClient
import CliptabContract
import DBus

/// `cliptab apply TABLE [FILE|-] [--dry-run] [--revision REV]`.
struct ApplyCommand: CLICommand {
    /// The command's name, help, arguments and options.
    static let spec = CommandSpec(
        "apply", abstract: "make a table equal to a table file, with the fewest changes",
        discussion: """
            Reads a table file (YAML, as 'cliptab export TABLE --format yaml' writes it; the
            schema is in docs/table-file.md) from FILE, or standard input when FILE is - or not
            given, and makes the table (created if missing) equal to it in one step: rows keep
            their ids through moves and edits, so key bindings and open menus follow. Prints
            what changed: "2 moved, 1 changed, 3 added, 1 deleted" (rows; sections and settings
            after a ";" when they changed). --dry-run prints what would change and changes
            nothing. --revision refuses the file (RevisionMismatch) unless the table is still
            at that revision. A document error names its line and column.
            """,
        arguments: [
            .table,
            ArgumentSpec(
                "FILE", .optional, help: "the table file (default -: standard input)", completion: .file),
        ],
        options: [
            .flag("--dry-run", help: "print what would change, change nothing"),
            .value("--revision", "REV", help: "apply only if the table is at revision REV"),
        ])

    private let table: String
    private let file: String?
    private let dryRun: Bool
    private let revision: UInt64

    /// Takes the checked arguments; throws a `UsageError` for a revision that is not a number.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        table = arguments.argument("TABLE")
        file = arguments.optionalArgument("FILE")
        dryRun = arguments.flag("--dry-run")
        if let text = arguments.value("--revision") {
            guard let number = UInt64(text) else {
                throw arguments.error("--revision takes a number, not \(text)")
            }
            revision = number
        } else {
            revision = 0
        }
    }

    /// Reads the file or standard input, then calls `ApplyTable` once.
    func run(_ context: CommandContext) throws {
        let source = file == nil || file == "-" ? "standard input" : file!
        let data = try InputReader.text(InputReader.readAll(file), source: source)
        let result = try TableFileApply.apply(
            context, table: table, document: data, revision: revision, dryRun: dryRun)
        if context.options.json {
            var fields: [(String, JSON)] = [("revision", .unsigned(result.revision))]
            for (name, count) in result.counts { fields.append((name, .unsigned(UInt64(count)))) }
            try context.output.line(JSON.object(fields).rendered)
        } else {
            try context.output.line((dryRun ? "would change: " : "") + TableFileApply.summary(result.counts))
        }
    }
}

/// The `ApplyTable` call of `apply` and `edit`, and the words for its counts.
enum TableFileApply {
    /// Calls `ApplyTable`; the new revision and the counts by name, in the contract's order.
    static func apply(
        _ context: CommandContext, table: String, document: String, revision: UInt64, dryRun: Bool
    ) throws -> (revision: UInt64, counts: [(String, UInt32)]) {
        try context.daemon {
            try $0.applyTable(
                table, document: document, revision: revision,
                options: dryRun ? ["dry_run": .boolean(true)] : [:])
        }
    }

    /// "2 moved, 1 changed, 3 added, 1 deleted", then "; sections: …" and "; settings
    /// changed" when those changed; "no changes" when nothing did.
    static func summary(_ counts: [(String, UInt32)]) -> String {
        func count(_ name: String) -> UInt32 { counts.first { $0.0 == name }?.1 ?? 0 }
        func line(_ prefix: String) -> String {
            ["moved", "changed", "added", "deleted"].map { "\(count(prefix + $0)) \($0)" }.joined(
                separator: ", ")
        }
        guard counts.contains(where: { $0.1 > 0 }) else { return "no changes" }
        var text = line("rows_")
        if ["moved", "changed", "added", "deleted"].contains(where: { count("sections_" + $0) > 0 }) {
            text += "; sections: " + line("sections_")
        }
        if count("settings_changed") > 0 { text += "; settings changed" }
        return text
    }
}
