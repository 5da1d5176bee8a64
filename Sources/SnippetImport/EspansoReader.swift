// SPDX-License-Identifier: MIT
import YAMLDocument

/// espanso's match files as imported snippets: each file a section headed by its name
/// without extension, each match a row (espanso.org/docs/matches).
enum EspansoReader {
    /// Adds the matches of `files` (YAML files only; others reported) to `result`.
    static func read(_ files: [SourceFile], into result: inout ImportedSnippets) throws {
        for file in files {
            guard file.name.hasSuffix(".yml") || file.name.hasSuffix(".yaml") else {
                result.note("\(file.path): skipped: not a .yml file")
                continue
            }
            var section = ImportedSection(header: baseName(file.name))
            if let root = try parseYAML(file) {
                guard case .mapping = root.content else {
                    throw SourceError("\(file.path): a match file is a mapping with \"matches:\"")
                }
                let globals = variables(root["global_vars"])
                for key in root.keys where !["matches", "global_vars", "imports"].contains(key) {
                    result.note("\(file.path): \(quoted(key)) ignored")
                }
                if root["imports"] != nil {
                    result.note("\(file.path): imports ignored (import each file or the folder)")
                }
                for (index, match) in (root["matches"]?.items ?? []).enumerated() {
                    let place = "\(file.path), match \(index + 1) (line \(match.mark.line))"
                    if let row = row(match, globals: globals, place: place, &result) {
                        section.rows.append(row)
                    }
                }
            }
            result.sections.append(section)
        }
    }

    /// One match as a row, or nil when left out (reported).
    private static func row(
        _ match: YAMLNode, globals: [String: YAMLNode], place: String, _ result: inout ImportedSnippets
    ) -> ImportedRow? {
        var trigger = match["trigger"]?.string ?? match["triggers"]?.items?.first?.string ?? ""
        let shown = trigger.isEmpty ? place : "\(place) \(quoted(trigger))"
        if trigger.isEmpty, match["regex"] != nil {
            result.note("\(shown): unnamed: a regex trigger has no name")
        }
        let known = [
            "trigger", "triggers", "regex", "replace", "form", "form_fields", "markdown", "html",
            "image_path", "vars",
        ]
        for key in match.keys where !known.contains(key) { result.note("\(shown): \(quoted(key)) ignored") }
        if (match["triggers"]?.items?.count ?? 0) > 1 {
            result.note("\(shown): the other triggers are left out")
        }
        var text: String
        var form = false
        if let replace = match["replace"]?.string {
            text = replace
        } else if let body = match["form"]?.string {
            text = body
            form = true
        } else if let body = match["markdown"]?.string ?? match["html"]?.string {
            text = body
            result.note("\(shown): kept as literal markup (markdown/html)")
        } else {
            result.leave(shown, match["image_path"] != nil ? "an image" : "no replace text")
            return nil
        }
        var vars = globals
        for (name, node) in variables(match["vars"]) { vars[name] = node }
        var fieldDefaults: [String: String] = [:]
        if case .mapping(let pairs) = match["form_fields"]?.content {
            for (key, value) in pairs {
                if let key = key.string, let value = value["default"]?.string { fieldDefaults[key] = value }
            }
        }
        let translation = EspansoText.translate(text, vars: vars, form: form, defaults: fieldDefaults)
        for note in translation.notes { result.note("\(shown): \(note)") }
        text = translation.text
        trigger = nameFromKeyword(trigger)
        return ImportedRow(name: trigger, text: text, isTemplate: translation.isTemplate)
    }

    /// The variables of a `vars:` or `global_vars:` list by name.
    private static func variables(_ node: YAMLNode?) -> [String: YAMLNode] {
        var found: [String: YAMLNode] = [:]
        for item in node?.items ?? [] {
            if let name = item["name"]?.string { found[name] = item }
        }
        return found
    }
}

/// The text of a match with espanso's placeholders made cliptab's where cliptab has them.
enum EspansoText {
    /// `text` translated: a template when any placeholder was, literal otherwise; `notes`
    /// say what was kept as it is.
    static func translate(_ text: String, vars: [String: YAMLNode], form: Bool, defaults: [String: String])
        -> (text: String, isTemplate: Bool, notes: [String])
    {
        var pieces: [(literal: String, placeholder: String?)] = []
        var notes: [String] = []
        var literal = ""
        var cursor = false
        var rest = Substring(text)
        func flush(_ placeholder: String) {
            pieces.append((literal, placeholder))
            literal = ""
        }
        while let first = rest.first {
            if rest.hasPrefix("$|$") {
                rest = rest.dropFirst(3)
                if cursor {
                    literal += "$|$"
                    notes.append("a second $|$ kept as text")
                } else {
                    cursor = true
                    flush("{cursor}")
                }
            } else if rest.hasPrefix("{{"), let end = rest.firstRange(of: "}}") {
                let name = rest[rest.index(rest.startIndex, offsetBy: 2)..<end.lowerBound]
                    .trimmingSpaces()
                let whole = String(rest[..<end.upperBound])
                rest = rest[end.upperBound...]
                if let placeholder = variable(name, vars: vars, notes: &notes) {
                    flush(placeholder)
                } else {
                    literal += whole
                }
            } else if form, rest.hasPrefix("[["), let end = rest.firstRange(of: "]]") {
                let label = rest[rest.index(rest.startIndex, offsetBy: 2)..<end.lowerBound].trimmingSpaces()
                let whole = String(rest[..<end.upperBound])
                rest = rest[end.upperBound...]
                let placeholder = "{input:\(label)\(defaults[label].map { "=" + $0 } ?? "")}"
                if isWellFormed(placeholder) {
                    flush(placeholder)
                } else {
                    literal += whole
                    notes.append("the form field \(quoted(whole)) kept as text (not an input label)")
                }
            } else {
                literal.append(first)
                rest = rest.dropFirst()
            }
        }
        guard !pieces.isEmpty else { return (text, false, notes) }
        var out = ""
        for piece in pieces { out += ImportedRow.escaped(piece.literal) + (piece.placeholder ?? "") }
        out += ImportedRow.escaped(literal)
        return (out, true, notes)
    }

    /// cliptab's placeholder for the variable `name`, or nil (noted) when it has none.
    private static func variable(_ name: String, vars: [String: YAMLNode], notes: inout [String]) -> String? {
        if let dot = name.firstIndex(of: "."), let form = vars[String(name[..<dot])],
            form["type"]?.string == "form"
        {
            return formField(String(name[name.index(after: dot)...]), of: form, name, notes: &notes)
        }
        guard let variable = vars[name] else {
            notes.append("{{\(name)}} kept as text (no such variable)")
            return nil
        }
        let type = variable["type"]?.string ?? ""
        switch type {
        case "clipboard":
            return "{clipboard}"
        case "date":
            let format = variable["params"]?["format"]?.string ?? "%Y-%m-%d"
            var offset = ""
            if let text = variable["params"]?["offset"]?.string, let seconds = Int(text), seconds != 0 {
                offset = " " + clockOffset(seconds)
            }
            let placeholder = "{date\(offset):\(format)}"
            guard isWellFormed(placeholder) else {
                notes.append("{{\(name)}} kept as text (a date format or offset cliptab cannot write)")
                return nil
            }
            if variable["params"]?["locale"] != nil || variable["params"]?["tz"] != nil {
                notes.append("{{\(name)}}: its locale and time zone left out")
            }
            return placeholder
        default:
            notes.append("{{\(name)}} kept as text (a \(type.isEmpty ? "typeless" : type) variable)")
            return nil
        }
    }

    /// `{input:FIELD=DEFAULT}` for `{{FORM.FIELD}}`, espanso 2's form variable (its
    /// `[[FIELD]]` in the form's `layout`, the default in `fields`), or nil (noted).
    private static func formField(_ field: String, of form: YAMLNode, _ name: String, notes: inout [String])
        -> String?
    {
        let fallback = form["params"]?["fields"]?[field]?["default"]?.string
        let placeholder = "{input:\(field)\(fallback.map { "=" + $0 } ?? "")}"
        guard isWellFormed(placeholder) else {
            notes.append("{{\(name)}} kept as text (not an input label)")
            return nil
        }
        return placeholder
    }

    /// An offset of `seconds` in the largest unit of elapsed time that divides it (never
    /// days: cliptab's move the calendar, espanso's are seconds).
    static func clockOffset(_ seconds: Int) -> String {
        let sign = seconds < 0 ? "-" : "+"
        let size = seconds.magnitude
        for (unit, length) in [("h", 3_600), ("m", 60)] as [(String, UInt)]
        where size % length == 0 {
            return "\(sign)\(size / length)\(unit)"
        }
        return "\(sign)\(size)s"
    }
}

extension Substring {
    /// The text without leading and trailing spaces.
    func trimmingSpaces() -> String {
        var text = self
        while text.first == " " { text = text.dropFirst() }
        while text.last == " " { text = text.dropLast() }
        return String(text)
    }
}
