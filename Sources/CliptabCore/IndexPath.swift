// SPDX-License-Identifier: MIT

/// A (section, row) index path.
public struct IndexPath: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The section index.
    public var section: Int32
    /// The row index within the section.
    public var row: Int32

    /// Makes an index path.
    public init(section: Int32, row: Int32) {
        self.section = section
        self.row = row
    }

    /// Orders by section, then row.
    public static func < (lhs: IndexPath, rhs: IndexPath) -> Bool {
        (lhs.section, lhs.row) < (rhs.section, rhs.row)
    }

    /// "S:R".
    public var description: String { "\(section):\(row)" }
}
