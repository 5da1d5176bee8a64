// SPDX-License-Identifier: MIT

/// The two X selections that carry text between programs.
public enum SelectionName: Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// `CLIPBOARD`: explicit copy and paste.
    case clipboard
    /// `PRIMARY`: the current selection, pasted with the middle button.
    case primary

    /// The X atom name, `CLIPBOARD` or `PRIMARY`.
    public var description: String {
        switch self {
        case .clipboard: return "CLIPBOARD"
        case .primary: return "PRIMARY"
        }
    }
}
