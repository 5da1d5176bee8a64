// SPDX-License-Identifier: MIT

/// A row of an exchanged table: its id (0 when read from data, which carries none that
/// counts: the store assigns new ones) and its text.
public struct ExchangeRow: Equatable, Sendable {
    /// The row id; exported in `json`, never read back.
    public var id: UInt64
    /// The cell's text.
    public var text: String
    /// The row's name; empty = none.
    public var name: String

    /// A row with `id`, `text` and `name`.
    public init(id: UInt64 = 0, text: String, name: String = "") {
        self.id = id
        self.text = text
        self.name = name
    }
}
