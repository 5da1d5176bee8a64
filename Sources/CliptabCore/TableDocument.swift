// SPDX-License-Identifier: MIT

/// A table as a readable document (the table file): its settings and its sections of rows.
///
/// A setting left out (nil) leaves the table's as it is when applied.
public struct TableDocument: Equatable, Sendable {
    /// The templates flag; nil leaves it as it is.
    public var templates: Bool?
    /// The allowed actions; nil leaves them as they are.
    public var actions: ActionSet?
    /// The sections, in order.
    public var sections: [DocumentSection]

    /// A document of `sections` and settings.
    public init(templates: Bool? = nil, actions: ActionSet? = nil, sections: [DocumentSection] = []) {
        self.templates = templates
        self.actions = actions
        self.sections = sections
    }

    /// Whether the document is written with a top-level `rows:`: one section without
    /// header or footer.
    public var isSingleSection: Bool {
        sections.count == 1 && sections[0].header.isEmpty && sections[0].footer.isEmpty
    }

    /// The number of rows in all sections.
    public var rowCount: Int { sections.reduce(0) { $0 + $1.rows.count } }
}

/// A section of a table document.
public struct DocumentSection: Equatable, Sendable {
    /// The header title; empty for none.
    public var header: String
    /// The footer title; empty for none.
    public var footer: String
    /// The rows, in order.
    public var rows: [DocumentRow]

    /// A section with `header`, `footer` and `rows`.
    public init(header: String = "", footer: String = "", rows: [DocumentRow] = []) {
        self.header = header
        self.footer = footer
        self.rows = rows
    }
}

/// A row of a table document: its text and its name (empty for none).
public struct DocumentRow: Equatable, Sendable {
    /// The row's name; empty for none.
    public var name: String
    /// The row's text.
    public var text: String

    /// A row of `text` named `name`.
    public init(name: String = "", text: String) {
        self.name = name
        self.text = text
    }
}

/// Reads and writes table documents in the table file's format (YAML); given to the service
/// at `init`, so that the core needs no parser.
public protocol TableDocumentCodec: Sendable {
    /// The document `data` holds; `invalidArgument` saying where it is wrong
    /// (`line 7, column 5: …`).
    func decode(_ data: String) throws -> TableDocument
    /// The text of `document`.
    func encode(_ document: TableDocument) throws -> String
}
