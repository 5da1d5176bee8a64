// SPDX-License-Identifier: MIT
import KeyChords

/// The rows a fill (`FillToFocus`) types into the focused window one after the other, the
/// key sent between two of them, and which row is being typed.
struct FillPlan {
    /// One row to type: its text filled in, whether it is secret, its row id.
    struct Row: Equatable {
        var text: String
        var isSecret: Bool
        var rowID: UInt64
    }

    /// Every row, in order (at least one).
    let rows: [Row]
    /// The key sent after a row is fetched and before the next row's chord (Tab, Return), or
    /// nil for none.
    let separator: KeyChord?
    /// The row being typed, from 0.
    var index = 0

    /// True while rows follow the one being typed.
    var hasNext: Bool { index + 1 < rows.count }

    /// `reason` placed at the row being typed: `row 3 of 5: …`.
    func placed(_ reason: String) -> String { "row \(index + 1) of \(rows.count): \(reason)" }
}
