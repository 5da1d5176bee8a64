// SPDX-License-Identifier: MIT

/// A whole table as exported or imported by `ExportTable` and `ImportTable`.
public struct ExchangeTable: Equatable, Sendable {
    /// The table's name.
    public var name: String
    /// The sections, in order; a table may have none.
    public var sections: [ExchangeSection]

    /// A table named `name` with `sections`.
    public init(name: String, sections: [ExchangeSection] = []) {
        self.name = name
        self.sections = sections
    }
}
