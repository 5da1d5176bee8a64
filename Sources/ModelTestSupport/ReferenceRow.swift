// SPDX-License-Identifier: MIT

/// A row of the reference: id and text.
struct ReferenceRow: Equatable {
    /// The row id (0 until the service has told it).
    var id: UInt64
    /// The cell text.
    var text: String
}
