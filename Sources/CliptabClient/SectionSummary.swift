// SPDX-License-Identifier: MIT

/// A section as `GetSections` describes it.
public struct SectionSummary: Equatable, Sendable {
    /// The header ("" for none).
    public var header: String
    /// The footer ("" for none).
    public var footer: String
    /// How many rows it holds.
    public var rowCount: Int
}
