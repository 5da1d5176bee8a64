// SPDX-License-Identifier: MIT

/// A section of an exchanged table.
public struct ExchangeSection: Equatable, Sendable {
    /// The header title; empty for none.
    public var header: String
    /// The footer title; empty for none.
    public var footer: String
    /// The rows, in order.
    public var rows: [ExchangeRow]

    /// A section with `header`, `footer` and `rows`.
    public init(header: String = "", footer: String = "", rows: [ExchangeRow] = []) {
        self.header = header
        self.footer = footer
        self.rows = rows
    }
}
