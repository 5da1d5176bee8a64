// SPDX-License-Identifier: MIT
import CliptabCore
import YAMLDocument

/// A table as an espanso match file: each named row a match `trigger: ":NAME"`, its
/// placeholders translated back where espanso has them.
public enum EspansoWriter {
    /// The match file of `document` (a table with templates when `templates`), and how many
    /// rows were left out (unnamed) and kept with cliptab's placeholders untranslated.
    public static func text(_ document: TableDocument, templates: Bool) throws -> (
        text: String, leftOut: Int, untranslated: Int
    ) {
        var matches: [YAMLNode] = []
        var leftOut = 0
        var untranslated = 0
        for section in document.sections {
            for row in section.rows {
                guard !row.name.isEmpty else {
                    leftOut += 1
                    continue
                }
                var fields: [(key: YAMLNode, value: YAMLNode)] = [
                    (.scalar("trigger", style: .plain), .scalar(":" + row.name))
                ]
                if templates, let template = try? Template(parsing: row.text),
                    let match = translated(template)
                {
                    fields += match
                } else {
                    if templates && !Template.isPlain(row.text) { untranslated += 1 }
                    fields.append((.scalar("replace", style: .plain), .scalar(row.text)))
                }
                matches.append(YAMLNode(.mapping(fields)))
            }
        }
        let root = YAMLNode(
            .mapping([
                (.scalar("matches", style: .plain), YAMLNode(.sequence(matches, flow: matches.isEmpty)))
            ]))
        do {
            return (String(decoding: try YAMLEmitter.text(of: root), as: UTF8.self), leftOut, untranslated)
        } catch let error as YAMLError {
            throw CliptabError(
                .invalidArgument, "the table could not be written for espanso: \(error.description)")
        }
    }

    /// The `replace` (or `form`) of a template and its `vars`; nil when a placeholder has no
    /// espanso form (`{uuid}`, `{snippet:…}`, calendar offsets).
    private static func translated(_ template: Template) -> [(key: YAMLNode, value: YAMLNode)]? {
        var text = ""
        var vars: [YAMLNode] = []
        var defaults: [(key: YAMLNode, value: YAMLNode)] = []
        var form = false
        func variable(_ name: String, _ type: String, _ params: [(String, String)]) {
            var fields: [(key: YAMLNode, value: YAMLNode)] = [
                (.scalar("name", style: .plain), .scalar(name)),
                (.scalar("type", style: .plain), .scalar(type)),
            ]
            if !params.isEmpty {
                fields.append(
                    (
                        .scalar("params", style: .plain),
                        YAMLNode(.mapping(params.map { (.scalar($0.0, style: .plain), .scalar($0.1)) }))
                    ))
            }
            vars.append(YAMLNode(.mapping(fields)))
        }
        for part in template.parts {
            switch part {
            case .literal(let literal): text += literal
            case .cursor: text += "$|$"
            case .clipboard:
                text += "{{clipboard}}"
                if !vars.contains(where: { $0["name"]?.string == "clipboard" }) {
                    variable("clipboard", "clipboard", [])
                }
            case .clock(let clock):
                var seconds: Int64 = 0
                for offset in clock.offsets {
                    switch offset.unit {
                    case .second: seconds += offset.amount
                    case .minute: seconds += offset.amount * 60
                    case .hour: seconds += offset.amount * 3_600
                    default: return nil
                    }
                }
                let name = "date\(vars.count + 1)"
                text += "{{\(name)}}"
                variable(
                    name, "date",
                    [("format", clock.format.text)] + (seconds == 0 ? [] : [("offset", "\(seconds)")]))
            case .input(let label, let value):
                text += "[[\(label)]]"
                form = true
                if let value {
                    defaults.append(
                        (
                            .scalar(label, style: .plain),
                            YAMLNode(.mapping([(.scalar("default", style: .plain), .scalar(value))]))
                        ))
                }
            case .uuid, .snippet: return nil
            }
        }
        var fields: [(key: YAMLNode, value: YAMLNode)] = [
            (.scalar(form ? "form" : "replace", style: .plain), .scalar(text))
        ]
        if !defaults.isEmpty {
            fields.append((.scalar("form_fields", style: .plain), YAMLNode(.mapping(defaults))))
        }
        if !vars.isEmpty {
            fields.append((.scalar("vars", style: .plain), YAMLNode(.sequence(vars, flow: false))))
        }
        return fields
    }
}
