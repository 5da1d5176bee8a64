// SPDX-License-Identifier: MIT
import CliptabClient
import CliptabContract

/// `cliptab export TABLE [--format F] [--output FILE]`.
struct ExportCommand: CLICommand {
    /// The command's name, help, arguments and options.
    static let spec = CommandSpec(
        "export", abstract: "write a table in an exchange format to stdout or a file",
        discussion: """
            Formats: json (the default: everything but row ids survives an import), tsv (one
            line per row, with \\t \\n \\\\ escapes) and lines (one row per line, '## HEADER'
            starts a section; no footers, and a row with a newline cannot be written), and
            yaml (the table file of 'cliptab edit' and 'cliptab apply': settings, sections, row
            names, every text exact; docs/table-file.md). The file is only written once the
            export has succeeded. espanso writes a match file: each named row a match
            ":NAME", placeholders translated where espanso has them; unnamed rows are left
            out and counted on standard error.
            """,
        arguments: [.table],
        options: [
            .value(
                "--format", "FORMAT", choices: ContractNames.formats + ["espanso"],
                help: "the exchange format (default json)"),
            .value(
                "--output", "FILE", short: "-o", help: "write to FILE instead of stdout", completion: .file),
        ])

    private let table: String
    private let format: String?
    private let file: String?

    /// Takes the checked arguments.
    init(_ arguments: ParsedArguments) {
        table = arguments.argument("TABLE")
        format = arguments.value("--format")
        file = arguments.value("--output")
    }

    /// Calls `ExportTable` and writes the data to stdout or the file.
    func run(_ context: CommandContext) throws {
        let data: String
        if format == "espanso" {
            let (exported, leftOut, untranslated) = try context.daemon {
                try $0.exportSnippets(table, to: "espanso")
            }
            data = exported
            if leftOut > 0 {
                writeToStandardError("cliptab: \(leftOut) unnamed row\(leftOut == 1 ? "" : "s") left out\n")
            }
            if untranslated > 0 {
                writeToStandardError(
                    "cliptab: \(untranslated) row\(untranslated == 1 ? "" : "s") kept with cliptab's placeholders (espanso has no such)\n"
                )
            }
        } else {
            data = try context.daemon { try $0.exportTable(table, format: format ?? "json") }
        }
        if let file, file != "-" {
            try InputReader.writeFile(file, Array(data.utf8))
        } else {
            try context.output.write(data)
        }
    }
}
