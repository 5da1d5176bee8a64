// SPDX-License-Identifier: MIT

/// The lines of a row's actions menu.
public enum RowActions {
    /// The menu's action that starts a sequence from the row to its section's end.
    public static let sequence = "sequence"
    /// The menu's action that fills the focused form with the row and those after it.
    public static let fill = "fill"

    /// The table's `allowed` actions for the row, in the daemon's order, with `sequence` and
    /// `fill` after `copy` (both copy each row, so they go where `copy` does).
    public static func lines(allowed: [String]) -> [String] {
        guard let copy = allowed.firstIndex(of: "copy") else { return allowed }
        var lines = allowed.filter { $0 != sequence && $0 != fill }
        lines.insert(contentsOf: [sequence, fill], at: copy + 1)
        return lines
    }
}
