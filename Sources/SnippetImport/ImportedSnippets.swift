// SPDX-License-Identifier: MIT
import CliptabContract
import CliptabCore

/// The peers' snippet sources cliptab imports.
public enum SnippetSourceKind: String, CaseIterable, Sendable {
    /// espanso match files: one file, or a folder of them.
    case espanso
    /// Alfred's `.alfredsnippets` collection (a zip archive), or the folder it unpacks to.
    case alfred
    /// Raycast's JSON export.
    case raycast
    /// A folder of text files.
    case folder
}

/// One imported row: its wanted name (empty for none) and its text, either literal or a
/// template in cliptab's grammar.
public struct ImportedRow: Equatable, Sendable {
    /// The name it asks for; empty for none.
    public var name: String
    /// The text: literal unless `isTemplate`.
    public var text: String
    /// Whether `text` is a template (placeholders translated) rather than literal text.
    public var isTemplate: Bool

    /// A row of `text` asking for `name`.
    public init(name: String, text: String, isTemplate: Bool) {
        self.name = name
        self.text = text
        self.isTemplate = isTemplate
    }

    /// The text as stored in a table whose templates are `on`: literal braces doubled there.
    func stored(templates on: Bool) -> String {
        guard on && !isTemplate else { return text }
        return ImportedRow.escaped(text)
    }

    /// `text` with `{` and `}` doubled, so that a template reads it as itself.
    static func escaped(_ text: String) -> String {
        guard text.contains(where: { $0 == "{" || $0 == "}" }) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        for character in text {
            if character == "{" {
                out += "{{"
            } else if character == "}" {
                out += "}}"
            } else {
                out.append(character)
            }
        }
        return out
    }
}

/// One imported section: its header and rows.
public struct ImportedSection: Equatable, Sendable {
    /// The header (a file or folder name); empty for none.
    public var header: String
    /// The rows, in the source's order.
    public var rows: [ImportedRow]

    /// A section headed `header`.
    public init(header: String, rows: [ImportedRow] = []) {
        self.header = header
        self.rows = rows
    }
}

/// What an import found: its sections and every row changed or left out, with the reason.
public struct ImportedSnippets: Equatable, Sendable {
    /// The sections, in the source's order.
    public var sections: [ImportedSection] = []
    /// One line per row changed or left out, and per thing of the source not imported.
    public var report: [String] = []
    /// How many rows of the source were left out.
    public var leftOut = 0

    /// Nothing yet.
    public init() {}

    /// The number of rows imported.
    public var rowCount: Int { sections.reduce(0) { $0 + $1.rows.count } }

    /// Whether any row needs templates on.
    public var needsTemplates: Bool { sections.contains { $0.rows.contains(where: \.isTemplate) } }

    /// Notes `line` in the report.
    mutating func note(_ line: String) { report.append(line) }

    /// Notes a row left out and why.
    mutating func leave(_ what: String, _ why: String) {
        leftOut += 1
        report.append("\(what): left out: \(why)")
    }

    /// Gives each row its name where it is a valid name not taken by an earlier row; the
    /// others are unnamed and reported.
    mutating func settleNames() {
        var used = Set<String>()
        for s in sections.indices {
            for r in sections[s].rows.indices {
                let name = sections[s].rows[r].name
                guard !name.isEmpty else { continue }
                let place = "\(sections[s].header.isEmpty ? "" : sections[s].header + ", ")row \(r + 1)"
                if !RowName.isValid(name) {
                    report.append("\(place): unnamed: \(quoted(name)) is not a row name")
                    sections[s].rows[r].name = ""
                } else if !used.insert(name).inserted {
                    report.append("\(place): unnamed: \(quoted(name)) names an earlier row")
                    sections[s].rows[r].name = ""
                }
            }
        }
    }
}

/// `text` in double quotes, cut to 60 characters, control characters escaped.
func quoted(_ text: String) -> String {
    var out = "\""
    for (index, character) in text.enumerated() {
        if index == 60 {
            out += "…"
            break
        }
        switch character {
        case "\n": out += "\\n"
        case "\t": out += "\\t"
        case "\"": out += "\\\""
        default:
            if character.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
                out += "?"
            } else {
                out.append(character)
            }
        }
    }
    return out + "\""
}

/// A keyword or trigger without its leading and trailing punctuation (`:sig` → `sig`).
func nameFromKeyword(_ keyword: String) -> String {
    func keeps(_ character: Character) -> Bool {
        character == "_" || character.isLetter || character.isNumber
    }
    var characters = Substring(keyword)
    while let first = characters.first, !keeps(first) { characters = characters.dropFirst() }
    while let last = characters.last, !keeps(last) { characters = characters.dropLast() }
    return String(characters)
}

/// A file name without its extension (`sig.txt` → `sig`; `.profile` stays).
func baseName(_ fileName: String) -> String {
    guard let dot = fileName.lastIndex(of: "."), dot != fileName.startIndex else { return fileName }
    return String(fileName[..<dot])
}

/// Whether `placeholder` (one `{…}`) is one cliptab's templates read.
func isWellFormed(_ placeholder: String) -> Bool {
    guard let template = try? Template(parsing: placeholder) else { return false }
    guard template.parts.count == 1 else { return false }
    if case .literal = template.parts[0] { return false }
    return true
}
