// SPDX-License-Identifier: MIT
import CliptabContract
import CliptabCore
import YAMLDocument

/// The table file: a table document as YAML (`docs/table-file.md`).
///
/// Read and written with libyaml; every error names its line and column.
public struct TableFileCodec: TableDocumentCodec {
    /// A codec.
    public init() {}

    /// The document in `data`; `invalidArgument` with `line L, column C: …` otherwise.
    public func decode(_ data: String) throws -> TableDocument {
        do {
            guard let root = try YAMLParser.document(data.utf8) else {
                throw YAMLError(
                    "the file holds no document; a table file is a mapping with \"rows:\" or \"sections:\"",
                    at: YAMLMark(line: 1, column: 1))
            }
            return try TableFileReader.document(root)
        } catch let error as YAMLError {
            throw CliptabError(.invalidArgument, error.description)
        }
    }

    /// The text of `document`: `rows:` at the top for one section without titles,
    /// `sections:` otherwise (`sections: []` for none).
    public func encode(_ document: TableDocument) throws -> String {
        do {
            return String(decoding: try YAMLEmitter.text(of: TableFileWriter.node(document)), as: UTF8.self)
        } catch let error as YAMLError {
            throw CliptabError(
                .invalidArgument, "the table could not be written as yaml: \(error.description)")
        }
    }
}

/// The document as a YAML tree.
enum TableFileWriter {
    static func node(_ document: TableDocument) -> YAMLNode {
        var pairs: [(key: YAMLNode, value: YAMLNode)] = []
        func add(_ key: String, _ value: YAMLNode) { pairs.append((.scalar(key, style: .plain), value)) }
        if let templates = document.templates {
            add("templates", .scalar(templates ? "true" : "false", style: .plain))
        }
        if let actions = document.actions {
            add(
                "actions",
                YAMLNode(.sequence(actions.actions.map { .scalar($0.rawValue, style: .plain) }, flow: true)))
        }
        if document.isSingleSection {
            add("rows", rowsNode(document.sections[0].rows))
        } else {
            let sections = document.sections.map { section -> YAMLNode in
                var fields: [(key: YAMLNode, value: YAMLNode)] = []
                if !section.header.isEmpty {
                    fields.append((.scalar("header", style: .plain), .scalar(section.header)))
                }
                if !section.footer.isEmpty {
                    fields.append((.scalar("footer", style: .plain), .scalar(section.footer)))
                }
                fields.append((.scalar("rows", style: .plain), rowsNode(section.rows)))
                return YAMLNode(.mapping(fields))
            }
            add("sections", YAMLNode(.sequence(sections, flow: sections.isEmpty)))
        }
        return YAMLNode(.mapping(pairs))
    }

    private static func rowsNode(_ rows: [DocumentRow]) -> YAMLNode {
        YAMLNode(
            .sequence(
                rows.map { row in
                    guard !row.name.isEmpty else { return .scalar(row.text) }
                    return YAMLNode(
                        .mapping([
                            (.scalar("name", style: .plain), .scalar(row.name, style: .plain)),
                            (.scalar("text", style: .plain), .scalar(row.text)),
                        ]))
                }, flow: rows.isEmpty))
    }
}

/// The schema: a YAML tree read as a document, every error at its node.
enum TableFileReader {
    static func document(_ root: YAMLNode) throws -> TableDocument {
        let fields = try mapping(
            root, what: "a table file", keys: ["templates", "actions", "sections", "rows"])
        var document = TableDocument()
        if let node = fields["templates"] {
            switch try string(node, what: "templates") {
            case "true": document.templates = true
            case "false": document.templates = false
            case let other:
                throw YAMLError("templates is true or false, not \(quoted(other))", at: node.mark)
            }
        }
        if let node = fields["actions"] {
            var actions: [TableAction] = []
            for item in try sequence(node, what: "actions") {
                let word = try string(item, what: "an action")
                guard let action = TableAction(rawValue: word) else {
                    let names = TableAction.allCases.map(\.rawValue).joined(separator: ", ")
                    throw YAMLError("unknown action \(quoted(word)); the actions are \(names)", at: item.mark)
                }
                actions.append(action)
            }
            document.actions = ActionSet(actions)
        }
        switch (fields["rows"], fields["sections"]) {
        case (let rows?, nil):
            document.sections = [DocumentSection(rows: try self.rows(rows))]
        case (nil, let sections?):
            for item in try sequence(sections, what: "sections") {
                let section = try mapping(item, what: "a section", keys: ["header", "footer", "rows"])
                document.sections.append(
                    DocumentSection(
                        header: try section["header"].map { try string($0, what: "a header") } ?? "",
                        footer: try section["footer"].map { try string($0, what: "a footer") } ?? "",
                        rows: try section["rows"].map { try rows($0) } ?? []))
            }
        case (let rows?, _?):
            throw YAMLError("a table file has \"rows:\" or \"sections:\", not both", at: rows.mark)
        case (nil, nil):
            throw YAMLError("a table file needs \"rows:\" or \"sections:\"", at: root.mark)
        }
        try checkNames(document, root)
        return document
    }

    private static func rows(_ node: YAMLNode) throws -> [DocumentRow] {
        try sequence(node, what: "rows").map { item in
            if let text = item.string { return DocumentRow(text: text) }
            let fields = try mapping(item, what: "a row", keys: ["name", "text"])
            guard let text = fields["text"] else {
                throw YAMLError("this row has no \"text\"", at: item.mark)
            }
            var name = ""
            if let node = fields["name"] {
                name = try string(node, what: "a row name")
                guard RowName.isValid(name) else {
                    throw YAMLError(
                        "\(quoted(name)) is not a row name: 1–\(RowName.maxBytes) bytes of letters, digits, \"_\", \".\""
                            + " and \"-\", starting with a letter or \"_\"", at: node.mark)
                }
            }
            return DocumentRow(name: name, text: try string(text, what: "a row's text"))
        }
    }

    /// Names are unique: the second use is the error.
    private static func checkNames(_ document: TableDocument, _ root: YAMLNode) throws {
        var seen = Set<String>()
        var duplicate: String?
        for section in document.sections {
            for row in section.rows where !row.name.isEmpty && !seen.insert(row.name).inserted {
                duplicate = row.name
                break
            }
            if duplicate != nil { break }
        }
        guard let duplicate else { return }
        // Found cheaply above; the node is looked up only for the message.
        var marks: [YAMLMark] = []
        func visit(_ node: YAMLNode) {
            switch node.content {
            case .scalar: return
            case .sequence(let items, _): items.forEach(visit)
            case .mapping(let pairs):
                for pair in pairs {
                    if pair.key.string == "name" && pair.value.string == duplicate {
                        marks.append(pair.value.mark)
                    }
                    visit(pair.value)
                }
            }
        }
        visit(root)
        throw YAMLError(
            "the row name \(quoted(duplicate)) is used twice (first at \(marks.first?.description ?? "?"))",
            at: marks.count > 1 ? marks[1] : root.mark)
    }

    private static func mapping(_ node: YAMLNode, what: String, keys: [String]) throws -> [String: YAMLNode] {
        guard case .mapping(let pairs) = node.content else {
            throw YAMLError(
                "\(what) is a mapping (\(keys.joined(separator: ", "))), not \(node.kindDescription)",
                at: node.mark)
        }
        var fields: [String: YAMLNode] = [:]
        for pair in pairs {
            let key = pair.key.string ?? ""
            guard keys.contains(key) else {
                throw YAMLError(
                    "unknown key \(quoted(key)) in \(what); the keys are \(keys.joined(separator: ", "))",
                    at: pair.key.mark)
            }
            fields[key] = pair.value
        }
        return fields
    }

    private static func sequence(_ node: YAMLNode, what: String) throws -> [YAMLNode] {
        guard case .sequence(let items, _) = node.content else {
            throw YAMLError(
                "\(what) is a list (\"- item\" lines or [a, b]), not \(node.kindDescription)", at: node.mark)
        }
        return items
    }

    private static func string(_ node: YAMLNode, what: String) throws -> String {
        guard let text = node.string else {
            throw YAMLError("\(what) is a string, not \(node.kindDescription)", at: node.mark)
        }
        return text
    }

    private static func quoted(_ word: String) -> String {
        let short = word.unicodeScalars.count > 40 ? String(word.unicodeScalars.prefix(40)) + "…" : word
        return "\"" + short + "\""
    }
}
