// SPDX-License-Identifier: MIT
import CliptabClient
import CliptabContract
import DBus
import Glibc

/// `cliptab import TABLE [FILE|-] [--format F] [--replace]`, and
/// `cliptab import TABLE PATH --from SOURCE [--replace] [--dry-run]` (a peer's snippets).
struct ImportCommand: CLICommand {
    /// The command's name, help, arguments and options.
    static let spec = CommandSpec(
        "import", abstract: "read a table in an exchange format from a file or stdin",
        discussion: """
            Reads FILE, or standard input when FILE is - or not given, in one of the formats of
            'cliptab export' (default json), and adds its sections after the table's (creating
            the table if it does not exist), or replaces its content with --replace. All or
            nothing. Prints how many rows were imported (with --json: {"rows": N}).

            With --from espanso|alfred|raycast|folder, PATH is a peer's snippets (an espanso
            match file or folder, an Alfred collection, a Raycast JSON export, a
            folder of text files), read by cliptabd, translated (placeholders included) and
            applied over the table's content: rows of the same name are updated, so importing
            twice changes nothing. Prints what changed, then every row renamed, changed or
            left out with the reason. --dry-run prints the same and changes nothing.
            """,
        arguments: [
            .table,
            ArgumentSpec(
                "FILE", .optional, help: "the file to read (default -: standard input)", completion: .file),
        ],
        options: [
            .value(
                "--format", "FORMAT", choices: ContractNames.formats,
                help: "the exchange format (default json)"),
            .flag("--replace", help: "drop the table's content first"),
            .value(
                "--from", "SOURCE", choices: ["espanso", "alfred", "raycast", "folder"],
                help: "import a peer's snippets from PATH"),
            .flag("--dry-run", help: "with --from: print the report, change nothing"),
        ])

    private let table: String
    private let file: String?
    private let format: String
    private let replace: Bool
    private let from: String?
    private let dryRun: Bool

    /// Takes the checked arguments; --from needs a path and no --format, --dry-run needs --from.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        table = arguments.argument("TABLE")
        file = arguments.optionalArgument("FILE")
        format = arguments.value("--format") ?? "json"
        replace = arguments.flag("--replace")
        from = arguments.value("--from")
        dryRun = arguments.flag("--dry-run")
        if from != nil && (file == nil || file == "-") {
            throw arguments.error("--from reads a path: give the file or folder")
        }
        if from != nil && arguments.value("--format") != nil {
            throw arguments.error("--from and --format cannot be given together")
        }
        if from == nil && dryRun { throw arguments.error("--dry-run is for --from") }
    }

    /// Reads the file or standard input, then calls `ImportTable` once; with --from, calls
    /// `ImportSnippets` with the absolute path.
    func run(_ context: CommandContext) throws {
        if let from, let file {
            return try SnippetImportCall.run(context, table, file, from, replace, dryRun)
        }
        let source = file == nil || file == "-" ? "standard input" : file!
        let data = try InputReader.text(InputReader.readAll(file), source: source)
        let rows = try context.daemon {
            try $0.importTable(table, format: format, data: data, replace: replace)
        }
        if context.options.json {
            try context.output.line(JSON.object([("rows", .unsigned(UInt64(rows)))]).rendered)
        } else {
            try context.output.line("imported \(rows) row\(rows == 1 ? "" : "s") into \(table)")
        }
    }
}

/// `ImportSnippets`: cliptabd reads the path itself (it runs as the same user), so the CLI
/// stays without a YAML or archive reader.
enum SnippetImportCall {
    /// Calls `ImportSnippets` and prints the counts and the report.
    static func run(
        _ context: CommandContext, _ table: String, _ path: String, _ from: String, _ replace: Bool,
        _ dryRun: Bool
    ) throws {
        var options: [String: BusValue] = [:]
        if replace { options["replace"] = .boolean(true) }
        if dryRun { options["dry_run"] = .boolean(true) }
        let (revision, counts, report) = try context.daemon {
            try $0.importSnippets(table, path: absolute(path), from: from, options: options)
        }
        func count(_ name: String) -> UInt32 { counts.first { $0.0 == name }?.1 ?? 0 }
        if context.options.json {
            var fields: [(String, JSON)] = [("revision", .unsigned(revision))]
            for (name, value) in counts { fields.append((name, .unsigned(UInt64(value)))) }
            fields.append(("report", .array(report.map { .string($0) })))
            try context.output.line(JSON.object(fields).rendered)
            return
        }
        let rows = count("imported_rows")
        let sections = count("imported_sections")
        try context.output.line(
            "\(dryRun ? "would import" : "imported") \(rows) row\(rows == 1 ? "" : "s") in \(sections) section\(sections == 1 ? "" : "s")"
                + (count("left_out") > 0 ? " (\(count("left_out")) left out)" : "") + ": "
                + TableFileApply.summary(
                    counts.filter { !["imported_rows", "imported_sections", "left_out"].contains($0.0) }))
        for line in report { try context.output.line(line) }
    }

    /// `path` made absolute against the working directory, for the daemon, which has its own.
    static func absolute(_ path: String) -> String {
        guard !path.hasPrefix("/") else { return path }
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getcwd(&buffer, buffer.count) != nil else { return path }
        let directory = String(
            decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return (directory == "/" ? "" : directory) + "/" + path
    }
}
