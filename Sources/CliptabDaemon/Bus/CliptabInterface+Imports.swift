// SPDX-License-Identifier: MIT
import CliptabCore
import DBus
import SnippetImport

extension CliptabInterface {
    /// The methods of snippet imports (API version 4): a peer's snippets read by the daemon
    /// from a path and applied over a table.
    static var importMethods: [CliptabMethod] {
        [
            .immediate(
                "ImportSnippets",
                [arg("table", "s"), arg("path", "s"), arg("from", "s"), arg("options", "a{sv}")],
                [arg("revision", "t"), arg("counts", "a{su}"), arg("report", "as")]
            ) { service, a in
                let options = try CallOptions(a.values[3], known: [("replace", "b"), ("dry_run", "b")])
                let (replace, dryRun) = (options.bool("replace"), options.bool("dry_run"))
                let from = try a.string("from")
                guard let kind = SnippetSourceKind(rawValue: from) else {
                    throw CliptabError(
                        .invalidArgument,
                        "unknown source \"\(from.prefix(64))\"; the sources are "
                            + SnippetSourceKind.allCases.map(\.rawValue).joined(separator: ", "))
                }
                let table = try a.string("table")
                // A name the import could never create is refused before the source is read.
                try TableName.validate(table)
                let snippets = try SnippetImporter().snippets(at: try a.string("path"), kind: kind)
                var current: TableDocument?
                do { current = try service.tables.document(of: table) } catch let error as CliptabError
                    where error.code == .noSuchTable
                {
                    current = nil
                }
                let document = SnippetImporter.merged(snippets, over: current, replace: replace)
                let result = try service.tables.apply(table, document: document, revision: 0, dryRun: dryRun)
                var counts = result.counts.named.map {
                    (BusValue.string($0.name), BusValue.uint32(UInt32($0.count)))
                }
                counts += [
                    (.string("imported_rows"), .uint32(UInt32(snippets.rowCount))),
                    (.string("imported_sections"), .uint32(UInt32(snippets.sections.count))),
                    (.string("left_out"), .uint32(UInt32(snippets.leftOut))),
                ]
                return [
                    .uint64(result.revision), .dictionary(keySignature: "s", valueSignature: "u", counts),
                    strings(snippets.report),
                ]
            },
            .immediate(
                "ExportSnippets", [arg("table", "s"), arg("to", "s")],
                [arg("data", "s"), arg("left_out", "u"), arg("untranslated", "u")]
            ) { service, a in
                let to = try a.string("to")
                guard to == "espanso" else {
                    throw CliptabError(
                        .invalidArgument, "unknown target \"\(to.prefix(64))\"; the one target is espanso")
                }
                let document = try service.tables.document(of: a.string("table"))
                let file = try EspansoWriter.text(document, templates: document.templates == true)
                return [
                    .string(file.text), .uint32(UInt32(file.leftOut)), .uint32(UInt32(file.untranslated)),
                ]
            },
        ]
    }
}
