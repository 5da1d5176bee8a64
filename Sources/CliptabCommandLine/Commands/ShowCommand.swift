// SPDX-License-Identifier: MIT
import CliptabClient
import CliptabContract
import DBus

/// `cliptab show TABLE`: the whole table, laid out for reading.
struct ShowCommand: CLICommand {
    /// The command's name, help, arguments and options.
    static let spec = CommandSpec(
        "show", abstract: "show a table: sections with their titles, rows numbered S:R",
        discussion: """
            Each section starts with a line '== [S] HEADER'; its footer, if any, follows its
            rows on a line '-- FOOTER'. Rows are indented and numbered S:R in one column, their
            text lined up after it; a text's further lines are indented to the same column.
            Use 'cliptab get' for a cell's exact bytes. A named row shows its name in brackets
            before its text ('0:1  [sig] text'); --ids shows each row's id too ('0:1  #7 text').
            Control characters other than newline and tab are shown escaped (\\x1b,
            \\u{9b}), so that a cell cannot drive the terminal; --json and 'cliptab get'
            give the exact text.

            With --json: {"name", "revision", "sections": [{"header", "footer", "rows": [{"id",
            "name", "text"}]}]} ("name" only for named rows), read at one revision.
            """,
        arguments: [.table],
        options: [.flag("--ids", help: "show each row's id")])

    /// Rows asked for per GetRows call, halved when a page would make too big a reply.
    static let pageSize: UInt32 = 10_000

    private let table: String
    private let showIDs: Bool

    /// Takes the checked arguments.
    init(_ arguments: ParsedArguments) {
        table = arguments.argument("TABLE")
        showIDs = arguments.flag("--ids")
    }

    /// One section as read.
    struct SectionContent {
        let header: String
        let footer: String
        var rows: [(id: UInt64, text: String)]
    }

    /// Reads the table at one revision and prints it laid out, or as JSON.
    func run(_ context: CommandContext) throws {
        let (revision, sections, names) = try read(context)
        if context.options.json {
            try context.output.line(json(revision: revision, sections: sections, names: names).rendered)
        } else {
            try render(sections, names: names, to: context.output)
        }
    }

    /// Reads every section and row; reads again (up to 5 times) if the table changed
    /// meanwhile, so that what is shown is one revision.
    private func read(_ context: CommandContext) throws -> (UInt64, [SectionContent], [UInt64: String]) {
        var attempt = 0
        while true {
            let before = try context.daemon { try $0.revision(table) }
            var sections: [SectionContent] = []
            for (index, section) in try context.daemon({ try $0.sections(table) }).enumerated() {
                let rows = try readRows(context, section: Int32(index), count: UInt32(section.rowCount))
                sections.append(SectionContent(header: section.header, footer: section.footer, rows: rows))
            }
            var names: [UInt64: String] = [:]
            for named in try context.daemon({ try $0.rowNames(table) }) { names[named.id] = named.name }
            let after = try context.daemon { try $0.revision(table) }
            attempt += 1
            if before == after || attempt == 5 { return (after, sections, names) }
        }
    }

    /// The rows of one section, a page at a time.
    private func readRows(_ context: CommandContext, section: Int32, count: UInt32) throws
        -> [(id: UInt64, text: String)]
    {
        var rows: [(id: UInt64, text: String)] = []
        var limit = Self.pageSize
        while rows.count < Int(count) {
            let page: [BusIDText]
            do {
                page = try context.daemon {
                    try $0.rows(table, section: section, offset: UInt32(rows.count), limit: limit)
                }
            } catch CLIFailure.refused(let error)
                where error.name == CliptabBus.errorPrefix + "LimitExceeded" && limit > 1
            {
                limit /= 2
                continue
            }
            if page.isEmpty { break }
            for row in page { rows.append((row.id, row.text)) }
        }
        return rows
    }

    private func json(revision: UInt64, sections: [SectionContent], names: [UInt64: String]) -> JSON {
        .object([
            ("name", .string(table)),
            ("revision", .unsigned(revision)),
            (
                "sections",
                .array(
                    sections.map { section in
                        .object([
                            ("header", .string(section.header)),
                            ("footer", .string(section.footer)),
                            (
                                "rows",
                                .array(
                                    section.rows.map { row in
                                        var members: [(String, JSON)] = [("id", .unsigned(row.id))]
                                        if let name = names[row.id] {
                                            members.append(("name", .string(name)))
                                        }
                                        members.append(("text", .string(row.text)))
                                        return .object(members)
                                    })
                            ),
                        ])
                    })
            ),
        ])
    }

    private func render(_ sections: [SectionContent], names: [UInt64: String], to output: Output) throws {
        if sections.isEmpty {
            try output.line("(no sections)")
            return
        }
        var pathWidth = 0
        for (index, section) in sections.enumerated() where !section.rows.isEmpty {
            pathWidth = max(pathWidth, "\(index):\(section.rows.count - 1)".count)
        }
        let rowIndent = "   "
        let textIndent = "\n" + String(repeating: " ", count: rowIndent.count + pathWidth + 2)
        for (index, section) in sections.enumerated() {
            let title = section.header.isEmpty ? "" : " " + indented(section.header, "\n   ")
            try output.line("== [\(index)]\(title)")
            if section.rows.isEmpty { try output.line(rowIndent + "(no rows)") }
            for (row, content) in section.rows.enumerated() {
                let path = "\(index):\(row)"
                let padding = String(repeating: " ", count: pathWidth - path.count + 2)
                var label = showIDs ? "#\(content.id) " : ""
                if let name = names[content.id] { label += "[\(name)] " }
                try output.line(rowIndent + path + padding + label + indented(content.text, textIndent))
            }
            if !section.footer.isEmpty { try output.line("-- " + indented(section.footer, "\n   ")) }
        }
    }

    /// `text` with its control characters escaped (a cell must not drive the terminal) and
    /// every newline followed by `newline`'s indentation.
    private func indented(_ raw: String, _ newline: String) -> String {
        let text = TerminalText.escaped(raw)
        guard text.contains("\n") else { return text }
        return text.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: newline)
    }
}
