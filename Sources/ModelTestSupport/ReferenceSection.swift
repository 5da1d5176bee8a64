// SPDX-License-Identifier: MIT

/// A section of the reference.
struct ReferenceSection: Equatable {
    /// The header title.
    var header = ""
    /// The footer title.
    var footer = ""
    /// The rows in order.
    var rows: [ReferenceRow] = []
}
