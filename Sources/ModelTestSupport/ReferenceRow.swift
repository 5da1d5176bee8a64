// SPDX-License-Identifier: MIT

/// A row of the reference: id, text and name.
struct ReferenceRow: Equatable {
    /// The row id (0 until the service has told it).
    var id: UInt64
    /// The cell text.
    var text: String
    /// The row's name; empty = none.
    var name = ""
}
