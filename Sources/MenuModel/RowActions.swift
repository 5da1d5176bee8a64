// SPDX-License-Identifier: MIT

/// The lines of a row's actions menu.
public enum RowActions {
    /// The menu's action that starts a sequence from the row to its section's end.
    public static let sequence = "sequence"

    /// The table's `allowed` actions for the row, in the daemon's order, with `sequence`
    /// after `copy` (a sequence copies each row, so it goes where `copy` does).
    public static func lines(allowed: [String]) -> [String] {
        guard let copy = allowed.firstIndex(of: "copy"), !allowed.contains(sequence) else { return allowed }
        var lines = allowed
        lines.insert(sequence, at: copy + 1)
        return lines
    }
}
