// SPDX-License-Identifier: MIT

/// One row as a client of the daemon sees it: id and text.
public struct RowSnapshot: Equatable, CustomStringConvertible {
    /// The row id.
    public var id: UInt64
    /// The cell text.
    public var text: String

    /// Makes a row.
    public init(id: UInt64, text: String) {
        self.id = id
        self.text = text
    }

    /// "#id "text"", for failure messages.
    public var description: String { "#\(id) \(text.debugDescription)" }
}
