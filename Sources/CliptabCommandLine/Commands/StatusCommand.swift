// SPDX-License-Identifier: MIT
import CliptabClient
import CliptabContract
import DBus

/// `cliptab status`: what the daemon says about itself.
struct StatusCommand: CLICommand {
    /// The command's name, help, arguments and options.
    static let spec = CommandSpec(
        "status", abstract: "show the daemon's version, API version, tables and clipboard state",
        discussion: """
            Reads the daemon's properties and whether the clipboard holds text (without printing
            the text). Properties a later daemon adds are listed too. With --json: {"cliptab",
            "version", "api_version", "tables", "clipboard": {"state": "text"|"empty"|
            "unavailable", "bytes" or "message", "backend"}, "properties", "links": {"folder",
            "tables": [{"table", "file", "state", "problem", "conflicts"}], "problems"}}. Linked
            tables are listed with their file and state (following, or invalid with the file's
            problem), each sync conflict copy with the diff command that compares it, and the
            files of the folder left alone with the reason (the "links" key and these lines only when
            some table is linked or some file of the folder is left alone).
            """)

    /// Takes the checked arguments.
    init(_ arguments: ParsedArguments) {}

    /// Reads the properties and the clipboard state, and prints them.
    func run(_ context: CommandContext) throws {
        let properties = try context.daemon { try $0.properties() }
        func property(_ name: String) -> BusValue? { properties.first { $0.0 == name }?.1 }
        var version = "?"
        if case .string(let text)? = property("Version") { version = text }
        var apiVersion: UInt32 = 0
        if case .uint32(let number)? = property("ApiVersion") { apiVersion = number }
        var tables: [String] = []
        if case .array(_, let names)? = property("Tables") {
            tables = names.compactMap { if case .string(let name) = $0 { name } else { nil } }
        }
        var ownedByDaemon = false
        if case .boolean(let owned)? = property("ClipboardOwned") { ownedByDaemon = owned }
        var copiedRow: UInt64 = 0
        if case .uint64(let row)? = property("ClipboardRowId") { copiedRow = row }
        var backend: String?
        if case .string(let summary)? = property("ClipboardBackend") { backend = summary }
        let known = [
            "Version", "ApiVersion", "Tables", "ClipboardOwned", "ClipboardRowId", "ClipboardBackend",
        ]
        let others = properties.filter { !known.contains($0.0) }

        let clipboard: (state: String, message: String, bytes: Int?)
        do {
            let text = try context.daemon { try $0.clipboard() }
            clipboard = ("text", "", text.utf8.count)
        } catch CLIFailure.refused(let error) where error.name == CliptabBus.errorPrefix + "ClipboardEmpty" {
            clipboard = ("empty", error.message, nil)
        } catch CLIFailure.refused(let error)
            where error.name == CliptabBus.errorPrefix + "ClipboardUnavailable"
        {
            clipboard = ("unavailable", error.message, nil)
        }

        // Shown when there is something to show: a daemon with no linked table and no
        // problem in its folder prints what it printed before linking existed.
        let links =
            apiVersion >= 4
            ? try Self.links(context).flatMap { $0.links.isEmpty && $0.problems.isEmpty ? nil : $0 } : nil

        if context.options.json {
            var clip: [(String, JSON)] = [("state", .string(clipboard.state))]
            if let backend { clip.append(("backend", .string(backend))) }
            if let bytes = clipboard.bytes {
                clip.append(("bytes", .unsigned(UInt64(bytes))))
                clip.append(("owner", .string(ownedByDaemon ? "cliptabd" : "another program")))
                if ownedByDaemon && copiedRow != 0 { clip.append(("row_id", .unsigned(copiedRow))) }
            } else {
                clip.append(("message", .string(clipboard.message)))
            }
            let document = JSON.object(
                [
                    ("cliptab", .string(CLIVersion.number)),
                    ("version", .string(version)),
                    ("api_version", .unsigned(UInt64(apiVersion))),
                    ("tables", .strings(tables)),
                    ("clipboard", .object(clip)),
                    ("properties", .object(others.map { ($0.0, SignalLine.json($0.1)) })),
                ] + (links.map { [("links", Self.json($0))] } ?? []))
            try context.output.line(document.rendered)
            return
        }
        let tableList = tables.isEmpty ? "none" : "\(tables.count) (\(tables.joined(separator: ", ")))"
        var lines = [
            ("cliptab", CLIVersion.number),
            ("cliptabd", "\(version) on \(CliptabBus.name), API version \(apiVersion)"),
            ("tables", tableList),
            (
                "clipboard",
                clipboard.bytes.map { bytes in
                    let owner =
                        ownedByDaemon
                        ? "copied by cliptabd" + (copiedRow != 0 ? " from row #\(copiedRow)" : "")
                        : "owned by another program"
                    return "holds \(bytes) byte\(bytes == 1 ? "" : "s") of text, \(owner)"
                }
                    ?? "\(clipboard.state) (\(clipboard.message))"
            ),
        ]
        if let backend { lines.append(("backend", backend)) }
        lines += others.map { ($0.0, SignalLine.plain($0.1)) }
        if let links { lines += Self.lines(links) }
        let width = lines.map(\.0.count).max() ?? 0
        for (label, value) in lines {
            try context.output.line(
                label + ":" + String(repeating: " ", count: width - label.count + 2) + value)
        }
    }

    /// The linked tables, nil from a daemon without them.
    private static func links(_ context: CommandContext) throws -> TableLinks? {
        do {
            return try context.daemon { client in try client.links() }
        } catch CLIFailure.refused(let error) where error.name == BusErrorName.unknownMethod {
            return nil
        }
    }

    /// The status lines of the linked tables: the folder, one per table, then each problem.
    static func lines(_ links: TableLinks) -> [(String, String)] {
        var lines = [("linked folder", links.folder)]
        for link in links.links {
            let state = link.state == "following" ? "following" : "invalid, changes refused: \(link.problem)"
            lines.append(("linked", "\(link.table): \(link.file) (\(state))"))
            for copy in link.conflicts {
                lines.append(
                    ("conflict", "\(copy); compare: diff \(shellQuoted(link.file)) \(shellQuoted(copy))"))
            }
        }
        let shown = Set(links.links.flatMap { [$0.problem] + $0.conflicts.map { _ in "" } })
        for problem in links.problems
        where !shown.contains(problem) && !problem.contains(": a sync conflict copy of ") {
            lines.append(("left alone", problem))
        }
        return lines
    }

    /// The linked tables as `status --json` gives them.
    static func json(_ links: TableLinks) -> JSON {
        .object([
            ("folder", .string(links.folder)),
            (
                "tables",
                .array(
                    links.links.map { link in
                        .object([
                            ("table", .string(link.table)), ("file", .string(link.file)),
                            ("state", .string(link.state)), ("problem", .string(link.problem)),
                            ("conflicts", .strings(link.conflicts)),
                        ])
                    })
            ),
            ("problems", .strings(links.problems)),
        ])
    }
}
