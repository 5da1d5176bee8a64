// SPDX-License-Identifier: MIT

/// A row of a section: stable id, order key (its place among its siblings in the store),
/// and text.
public struct Row: Equatable, Sendable {
    /// The row id: unique across the store, never reused, unchanged by moves and edits.
    public var id: UInt64
    /// The sparse order key that sorts the row within its section in the store.
    public var key: Int64
    /// The cell's text (valid UTF-8).
    public var text: String

    /// Makes a row.
    public init(id: UInt64, key: Int64, text: String) {
        self.id = id
        self.key = key
        self.text = text
    }
}
