// SPDX-License-Identifier: MIT
import CliptabCore

/// What a call answered, in a form that compares.
enum Answer: Equatable {
    /// No value.
    case nothing
    /// A section index.
    case index(Int32)
    /// Row ids.
    case ids([UInt64])
    /// Index paths.
    case paths([IndexPath])
    /// A text.
    case text(String)
    /// Rows as (id, text).
    case rows([ReferenceRow])
    /// Sections as "header|footer|row count".
    case sections([String])
    /// A table and an index path.
    case location(String, IndexPath)
    /// A menu.
    case actions([TableAction])
    /// A yes or no.
    case flag(Bool)
    /// A copied text, its row id (0 for a section) and the secret flag.
    case copied(String, UInt64, Bool)
    /// Table names.
    case names([String])
    /// A number of rows.
    case count(UInt32)
}
