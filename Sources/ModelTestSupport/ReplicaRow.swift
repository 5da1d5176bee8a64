// SPDX-License-Identifier: MIT

/// A row of the replica.
struct ReplicaRow: Equatable {
    /// The row id, once known.
    var id: UInt64?
    /// The text, once known (nil after a `RowsChanged`).
    var text: String?
}
