// SPDX-License-Identifier: MIT
import CliptabCore

/// A peer's snippets imported into a table: the source read and translated, then applied
/// as a table document through the same path as `ApplyTable`.
public struct SnippetImporter {
    /// The bounds of reading the source.
    public var files: SnippetFiles

    /// An importer reading with `files`' bounds.
    public init(files: SnippetFiles = SnippetFiles()) {
        self.files = files
    }

    /// The snippets of the source at `path` (absolute), names settled; `invalidArgument`
    /// when it cannot be read as `kind`, `limitExceeded` past a bound.
    public func snippets(at path: String, kind: SnippetSourceKind) throws -> ImportedSnippets {
        let source = try files.read(path)
        var result = ImportedSnippets()
        for line in source.skipped { result.note(line) }
        do {
            switch kind {
            case .espanso: try EspansoReader.read(source.files, into: &result)
            case .raycast: try RaycastReader.read(source.files, into: &result)
            case .alfred:
                let files =
                    source.isFolder
                    ? source.files : try AlfredArchive.files(of: source.files[0], files.maxTotalBytes)
                try AlfredReader.read(files, into: &result)
            case .folder:
                guard source.isFolder else { throw SourceError("\(quoted(path)) is not a folder") }
                FolderReader.read(source.files, into: &result)
            }
        } catch let error as SourceError {
            throw CliptabError(.invalidArgument, error.message + "; nothing was imported")
        }
        result.settleNames()
        return result
    }

    /// `current` (the table's document; nil for a missing table) with `snippets` applied over it.
    ///
    /// A named row replaces the text of the row of that name; an unnamed row is the first
    /// unmatched unnamed row of the same text in its section, as in the table-document
    /// identity rules, so importing the same source twice changes nothing; the rest is added
    /// at the end of the section of the same header (a new one when none). With `replace`,
    /// just the snippets.
    ///
    /// Templates are turned on when a row needs them; every literal text, the table's own
    /// included, then has its braces doubled so that it stays what it was.
    public static func merged(_ snippets: ImportedSnippets, over current: TableDocument?, replace: Bool)
        -> TableDocument
    {
        var steps = 0
        return merged(snippets, over: current, replace: replace, steps: &steps)
    }

    /// `merged(_:over:replace:)`, counting in `steps` the rows and sections it looks up or
    /// indexes: at most a few per row and section of the table and of the import.
    public static func merged(
        _ snippets: ImportedSnippets, over current: TableDocument?, replace: Bool, steps: inout Int
    ) -> TableDocument {
        let wasOn = current?.templates == true
        let on = wasOn || snippets.needsTemplates
        var document = replace || current == nil ? TableDocument() : current!
        document.actions = nil
        document.templates = on ? true : nil
        if on && !wasOn {
            for s in document.sections.indices {
                for r in document.sections[s].rows.indices {
                    document.sections[s].rows[r].text = ImportedRow.escaped(document.sections[s].rows[r].text)
                }
            }
        }
        var named: [String: (section: Int, row: Int)] = [:]
        // The first section of each header, as a search in order would find it.
        var sectionOf: [String: Int] = [:]
        for (s, section) in document.sections.enumerated() {
            steps += 1
            if sectionOf[section.header] == nil { sectionOf[section.header] = s }
            for (r, row) in section.rows.enumerated() where !row.name.isEmpty {
                steps += 1
                named[row.name] = (s, r)
            }
        }
        // Per section, how many of its unnamed rows of each text no imported row matched yet;
        // counted when an unnamed row first looks there, so one scan of the section at most.
        var unmatched: [Int: [String: Int]] = [:]
        for section in snippets.sections {
            steps += 1
            var target = sectionOf[section.header]
            for row in section.rows {
                steps += 1
                let text = row.stored(templates: on)
                if !row.name.isEmpty, let place = named[row.name] {
                    document.sections[place.section].rows[place.row].text = text
                    continue
                }
                if let s = target, row.name.isEmpty {
                    if unmatched[s] == nil {
                        var counts: [String: Int] = [:]
                        for candidate in document.sections[s].rows where candidate.name.isEmpty {
                            steps += 1
                            counts[candidate.text, default: 0] += 1
                        }
                        unmatched[s] = counts
                    }
                    if let left = unmatched[s]![text], left > 0 {
                        unmatched[s]![text] = left - 1
                        continue
                    }
                }
                if target == nil {
                    document.sections.append(DocumentSection(header: section.header))
                    target = document.sections.count - 1
                    sectionOf[section.header] = target
                    // The import's own rows are never the table's, to match.
                    unmatched[target!] = [:]
                }
                document.sections[target!].rows.append(DocumentRow(name: row.name, text: text))
                if !row.name.isEmpty {
                    named[row.name] = (target!, document.sections[target!].rows.count - 1)
                }
            }
            if target == nil {
                document.sections.append(DocumentSection(header: section.header))
                sectionOf[section.header] = document.sections.count - 1
                unmatched[document.sections.count - 1] = [:]
            }
        }
        return document
    }
}
