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
    /// A named row replaces the text of the row of that name, an unnamed row equal
    /// to one of its section is there already, the rest is added at the end of the section
    /// of the same header (a new one when none). With `replace`, just the snippets.
    ///
    /// Templates are turned on when a row needs them; every literal text, the table's own
    /// included, then has its braces doubled so that it stays what it was.
    public static func merged(_ snippets: ImportedSnippets, over current: TableDocument?, replace: Bool)
        -> TableDocument
    {
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
        for (s, section) in document.sections.enumerated() {
            for (r, row) in section.rows.enumerated() where !row.name.isEmpty { named[row.name] = (s, r) }
        }
        for section in snippets.sections {
            var target = document.sections.firstIndex { $0.header == section.header }
            for row in section.rows {
                let text = row.stored(templates: on)
                if !row.name.isEmpty, let place = named[row.name] {
                    document.sections[place.section].rows[place.row].text = text
                    continue
                }
                if let s = target, row.name.isEmpty,
                    document.sections[s].rows.contains(where: { $0.name.isEmpty && $0.text == text })
                {
                    continue
                }
                if target == nil {
                    document.sections.append(DocumentSection(header: section.header))
                    target = document.sections.count - 1
                }
                document.sections[target!].rows.append(DocumentRow(name: row.name, text: text))
                if !row.name.isEmpty {
                    named[row.name] = (target!, document.sections[target!].rows.count - 1)
                }
            }
            if target == nil { document.sections.append(DocumentSection(header: section.header)) }
        }
        return document
    }
}
