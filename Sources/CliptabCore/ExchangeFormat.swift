// SPDX-License-Identifier: MIT
import Quoting

/// The exchange formats of the contract; the raw value is the name used on the bus.
public enum ExchangeFormat: String, CaseIterable, Sendable {
    /// One JSON object with the name, the sections and their rows (ids included).
    case json
    /// Tab-separated values, one line per row, with escapes: expresses every table.
    case tsv
    /// One row per line and `## Header` lines, for people: no footers, no multi-line rows.
    case lines
    /// The table file (API version 4): a YAML document with settings, sections and named
    /// rows, read and written by the service's `TableDocumentCodec`.
    case yaml

    /// The format named `name` (exactly, lower case); `invalidArgument` listing the formats
    /// otherwise.
    public init(parsing name: String) throws {
        guard let format = ExchangeFormat(rawValue: name) else {
            let names = ExchangeFormat.allCases.map(\.rawValue).joined(separator: ", ")
            throw CliptabError(
                .invalidArgument,
                "unknown exchange format \(Quotation.quoted(name)); the formats are \(names)")
        }
        self = format
    }
}
