// SPDX-License-Identifier: MIT
// Stand-ins with the agreed API until the text branch (regex engine, decimal compare,
// exchange codecs) lands; this file is deleted by that merge.

/// Stand-in: a step budget for regex matching.
public struct MatchBudget {
    /// Stand-in default.
    public static let defaultSteps = 50_000_000
    /// Steps left.
    public var remaining: Int
    /// Makes a budget.
    public init(steps: Int) { remaining = steps }
}

/// Stand-in: literal-substring "regex".
public struct ExtendedRegex: Sendable {
    private let pattern: String
    /// Compiles (stand-in: accepts anything but an unbalanced parenthesis).
    public init(_ pattern: String) throws {
        if pattern.contains("(") != pattern.contains(")") {
            throw CliptabError(.invalidArgument, "unbalanced parenthesis in \"\(pattern)\"")
        }
        self.pattern = pattern
    }
    /// Stand-in: substring test.
    public func matches(_ text: String, budget: inout MatchBudget) throws -> Bool {
        budget.remaining -= text.utf8.count
        if budget.remaining < 0 { throw CliptabError(.limitExceeded, "regex too costly") }
        return text.contains(pattern)
    }
}

/// Stand-in: decimal via Double.
public struct DecimalText: Comparable, Sendable {
    private let value: Double
    /// Parses (stand-in).
    public init?(_ text: String) {
        guard let value = Double(text), text.allSatisfy({ "+-0123456789.".contains($0) }) else { return nil }
        self.value = value
    }
    /// Orders by value.
    public static func < (lhs: DecimalText, rhs: DecimalText) -> Bool { lhs.value < rhs.value }
}

/// Stand-in exchange row.
public struct ExchangeRow: Equatable, Sendable {
    /// Id.
    public var id: UInt64
    /// Text.
    public var text: String
    /// Makes a row.
    public init(id: UInt64, text: String) {
        self.id = id
        self.text = text
    }
}

/// Stand-in exchange section.
public struct ExchangeSection: Equatable, Sendable {
    /// Header.
    public var header: String
    /// Footer.
    public var footer: String
    /// Rows.
    public var rows: [ExchangeRow]
    /// Makes a section.
    public init(header: String, footer: String, rows: [ExchangeRow]) {
        self.header = header
        self.footer = footer
        self.rows = rows
    }
}

/// Stand-in exchange table.
public struct ExchangeTable: Equatable, Sendable {
    /// Name.
    public var name: String
    /// Sections.
    public var sections: [ExchangeSection]
    /// Makes a table.
    public init(name: String, sections: [ExchangeSection]) {
        self.name = name
        self.sections = sections
    }
}

/// Stand-in formats.
public enum ExchangeFormat: String, CaseIterable, Sendable {
    /// JSON.
    case json
    /// TSV.
    case tsv
    /// Lines.
    case lines
    /// Parses a format name.
    public init(parsing name: String) throws {
        guard let format = ExchangeFormat(rawValue: name) else {
            throw CliptabError(.invalidArgument, "unknown format \"\(name)\" (valid: json, tsv, lines)")
        }
        self = format
    }
}

/// Stand-in codec: `lines` only.
public enum ExchangeCodec {
    /// Encodes (stand-in: lines).
    public static func encode(_ table: ExchangeTable, as format: ExchangeFormat) throws -> String {
        var out = ""
        for (index, section) in table.sections.enumerated() {
            if index > 0 || !section.header.isEmpty {
                out += section.header.isEmpty ? "##\n" : "## \(section.header)\n"
            }
            for row in section.rows { out += row.text + "\n" }
        }
        return out
    }
    /// Decodes (stand-in: lines).
    public static func decode(_ data: String, as format: ExchangeFormat, tableName: String) throws
        -> ExchangeTable
    {
        var sections: [ExchangeSection] = []
        for line in data.split(separator: "\n", omittingEmptySubsequences: false).dropLast(
            data.hasSuffix("\n") ? 1 : 0)
        {
            if line.hasPrefix("##") {
                let header = line.dropFirst(2).drop { $0 == " " }
                sections.append(ExchangeSection(header: String(header), footer: "", rows: []))
            } else {
                if sections.isEmpty { sections.append(ExchangeSection(header: "", footer: "", rows: [])) }
                sections[sections.count - 1].rows.append(ExchangeRow(id: 0, text: String(line)))
            }
        }
        return ExchangeTable(name: tableName, sections: sections)
    }
}
