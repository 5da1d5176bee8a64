// SPDX-License-Identifier: MIT
import YAMLDocument

/// A folder of text files: each file a row named by its name without extension, each
/// sub-folder a section headed by its path.
enum FolderReader {
    /// Adds `files` to `result`: the folder's own files first, as one untitled section, then
    /// each sub-folder's in the order met; a file that is not UTF-8 is left out and reported.
    static func read(_ files: [SourceFile], into result: inout ImportedSnippets) {
        // A folder's files can come on both sides of a sub-folder in name order ("a.txt",
        // "job/", "sig.txt"): they still make one section.
        let ordered =
            files.filter { $0.components.count == 1 } + files.filter { $0.components.count > 1 }
        var sectionOfHeader: [String: Int] = [:]
        for file in ordered {
            let header = file.components.dropLast().joined(separator: "/")
            guard let text = String(validating: file.bytes, as: UTF8.self) else {
                result.leave(file.path, "not UTF-8 text")
                continue
            }
            let index =
                sectionOfHeader[header]
                ?? {
                    result.sections.append(ImportedSection(header: header))
                    sectionOfHeader[header] = result.sections.count - 1
                    return result.sections.count - 1
                }()
            result.sections[index].rows.append(
                ImportedRow(name: baseName(file.name), text: text, isTemplate: false))
        }
    }
}

/// Raycast's snippet export: a JSON array of `{name, text, keyword}`
/// (manual.raycast.com/dynamic-placeholders for the placeholders).
enum RaycastReader {
    /// Adds the snippets of each file to one untitled section of `result`.
    static func read(_ files: [SourceFile], into result: inout ImportedSnippets) throws {
        var section = ImportedSection(header: "")
        for file in files {
            // JSON is YAML's flow style: libyaml reads it with the same bounds (depth, no aliases).
            guard let items = try parseYAML(file)?.items else {
                throw SourceError("\(file.path): a Raycast export is a JSON array of snippets")
            }
            for (index, item) in items.enumerated() {
                let place = "\(file.path), snippet \(index + 1)"
                guard let text = item["text"]?.string else {
                    result.leave(place, "no text")
                    continue
                }
                let keyword = item["keyword"]?.string ?? ""
                let name = keyword.isEmpty ? item["name"]?.string ?? "" : nameFromKeyword(keyword)
                let shown = "\(place) \(quoted(keyword.isEmpty ? name : keyword))"
                let translation = BracePlaceholders.translate(text, raycast: true)
                for note in translation.notes { result.note("\(shown): \(note)") }
                section.rows.append(
                    ImportedRow(name: name, text: translation.text, isTemplate: translation.isTemplate))
            }
        }
        result.sections.append(section)
    }
}

/// An unpacked Alfred collection: one `NAME [UID].json` per snippet holding
/// `{"alfredsnippet": {snippet, name, keyword, uid}}`, plus `info.plist`.
enum AlfredReader {
    /// Adds the snippets of the folder's JSON files, in name order, to one section.
    static func read(_ files: [SourceFile], into result: inout ImportedSnippets) throws {
        var section = ImportedSection(header: "")
        for file in files {
            if file.name == "info.plist" {
                result.note("\(file.path): the collection's prefix and suffix are left out")
                continue
            }
            guard file.name.hasSuffix(".json") else {
                result.note("\(file.path): skipped: not a snippet (.json)")
                continue
            }
            guard let snippet = try parseYAML(file)?["alfredsnippet"], let text = snippet["snippet"]?.string
            else {
                result.leave(file.path, "not an Alfred snippet (no alfredsnippet.snippet)")
                continue
            }
            let keyword = snippet["keyword"]?.string ?? ""
            let shown = "\(file.path) \(quoted(keyword))"
            let translation = BracePlaceholders.translate(text, raycast: false)
            for note in translation.notes { result.note("\(shown): \(note)") }
            section.rows.append(
                ImportedRow(
                    name: nameFromKeyword(keyword), text: translation.text, isTemplate: translation.isTemplate
                ))
        }
        result.sections.append(section)
    }
}

/// Alfred's and Raycast's `{…}` placeholders made cliptab's where cliptab has them.
enum BracePlaceholders {
    /// `text` translated: a template when any placeholder was, literal otherwise.
    static func translate(_ text: String, raycast: Bool) -> (text: String, isTemplate: Bool, notes: [String])
    {
        var out = ""
        var notes: [String] = []
        var translated = false
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            out += ImportedRow.escaped(String(rest[..<open]))
            guard let close = rest[open...].firstIndex(of: "}") else {
                rest = rest[open...]
                break
            }
            let whole = String(rest[open...close])
            let body = String(rest[rest.index(after: open)..<close])
            rest = rest[rest.index(after: close)...]
            if let placeholder = placeholder(body, raycast: raycast) {
                out += placeholder
                translated = true
            } else {
                out += ImportedRow.escaped(whole)
                notes.append("\(quoted(whole)) kept as text")
            }
        }
        out += ImportedRow.escaped(String(rest))
        return translated ? (out, true, notes) : (text, false, notes)
    }

    private static func placeholder(_ body: String, raycast: Bool) -> String? {
        switch body {
        case "clipboard", "cursor", "date", "time", "datetime": return "{\(body)}"
        case "uuid" where raycast: return "{uuid}"
        default: break
        }
        guard raycast else { return nil }
        let words = body.split(separator: " ", maxSplits: 1)
        guard let kind = words.first, words.count == 2 else { return nil }
        guard let fields = attributes(String(words[1])) else { return nil }
        var placeholder: String
        switch kind {
        case "argument":
            guard let name = fields["name"], fields.count <= 2 else { return nil }
            placeholder = "{input:\(name)\(fields["default"].map { "=" + $0 } ?? "")}"
            if fields.count == 2 && fields["default"] == nil { return nil }
        case "date", "time", "datetime":
            guard Set(fields.keys).isSubset(of: ["format", "offset"]) else { return nil }
            let offsets = (fields["offset"] ?? "").split(separator: " ").map { String($0) }
            placeholder = "{\(kind)" + offsets.map { " " + $0 }.joined()
            // Raycast's format is Unicode's (yyyy-MM-dd); cliptab writes strftime's.
            if let format = fields["format"] {
                guard let strftime = unicodeFormat(format) else { return nil }
                placeholder += ":" + strftime
            }
            placeholder += "}"
        default: return nil
        }
        return isWellFormed(placeholder) ? placeholder : nil
    }

    /// `name="value" other="value"` as a dictionary; nil when it is not written so.
    private static func attributes(_ text: String) -> [String: String]? {
        var fields: [String: String] = [:]
        var rest = Substring(text)
        while !rest.isEmpty {
            rest = rest.drop { $0 == " " }
            guard let equals = rest.firstIndex(of: "="), rest[rest.index(after: equals)...].first == "\""
            else {
                return rest.isEmpty ? fields : nil
            }
            let key = String(rest[..<equals])
            let start = rest.index(equals, offsetBy: 2)
            guard let end = rest[start...].firstIndex(of: "\"") else { return nil }
            fields[key] = String(rest[start..<end])
            rest = rest[rest.index(after: end)...]
        }
        return fields
    }

    /// A Unicode date pattern (`yyyy-MM-dd HH:mm`) as strftime's, for the common fields;
    /// nil for one it cannot say.
    static func unicodeFormat(_ pattern: String) -> String? {
        let fields: [(String, String)] = [
            ("yyyy", "%Y"), ("yy", "%y"), ("MMMM", "%B"), ("MMM", "%b"), ("MM", "%m"), ("dd", "%d"),
            ("d", "%e"), ("EEEE", "%A"), ("EEE", "%a"), ("HH", "%H"), ("hh", "%I"), ("mm", "%M"),
            ("ss", "%S"), ("a", "%p"),
        ]
        var out = ""
        var rest = Substring(pattern)
        outer: while let first = rest.first {
            for (field, conversion) in fields where rest.hasPrefix(field) {
                out += conversion
                rest = rest.dropFirst(field.count)
                continue outer
            }
            guard !first.isLetter else { return nil }
            out += first == "%" ? "%%" : String(first)
            rest = rest.dropFirst()
        }
        return out
    }
}
