// SPDX-License-Identifier: MIT
import DBus

/// A table's sections, secrecy and rows, as a list of all its rows needs them.
public struct TableListing: Sendable {
    /// The sections.
    public var sections: [SectionSummary]
    /// Whether the table is secret: its rows' text is then never shown.
    public var isSecret: Bool
    /// Each section's rows, their text cut to the preview length asked for.
    public var rows: [[BusIDText]]
}
