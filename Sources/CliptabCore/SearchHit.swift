// SPDX-License-Identifier: MIT
import CliptabContract

/// A row a desktop search found, with what a result list shows of it and where it is.
///
/// A row of a secret table never carries its text: `text` is empty, and a result list shows
/// its name or a mask.
public struct SearchHit: Equatable, Sendable {
    /// The result's identifier, stable while the row stays where it is.
    public var id: SearchResultID
    /// The table's name.
    public var table: String
    /// The section's index when the search ran.
    public var section: Int32
    /// The row's index in its section when the search ran.
    public var row: Int32
    /// The section's header (empty: none).
    public var header: String
    /// The row's name, if it has one.
    public var name: String?
    /// Whether the table is secret.
    public var isSecret: Bool
    /// The row's text; empty for a secret table's row.
    public var text: String

    /// Makes a hit.
    public init(
        id: SearchResultID, table: String, section: Int32, row: Int32, header: String, name: String?,
        isSecret: Bool, text: String
    ) {
        self.id = id
        self.table = table
        self.section = section
        self.row = row
        self.header = header
        self.name = name
        self.isSecret = isSecret
        self.text = isSecret ? "" : text
    }

    /// The mask a secret row without a name is shown as.
    public static let mask = secretMask

    /// The most characters of a text `title` shows.
    public static let titleCharacters = 120

    /// What a result list shows as the result's name: the row's name, else a secret row's
    /// mask, else the first non-blank line of its text (cut to `titleCharacters`).
    public var title: String {
        if let name { return name }
        if isSecret { return Self.mask }
        let line = text.split(whereSeparator: \.isNewline).first { $0.contains { !$0.isWhitespace } } ?? ""
        let trimmed = line.drop(while: \.isWhitespace)
        return trimmed.count > Self.titleCharacters
            ? String(trimmed.prefix(Self.titleCharacters - 1)) + "…" : String(trimmed)
    }

    /// What a result list shows under the name: `table › header`, or the table alone.
    public var subtitle: String { header.isEmpty ? table : "\(table) › \(header)" }
}
