// SPDX-License-Identifier: MIT
import Quoting

/// A context-menu action of a table (UIKit's `canPerformAction`).
public enum TableAction: String, CaseIterable, Sendable {
    /// Copy a cell or section to the clipboard.
    case copy
    /// Copy a cell, then delete it.
    case cut
    /// Insert the clipboard text as a row.
    case paste
    /// Delete rows and sections.
    case delete
    /// Move rows and sections.
    case move
    /// Change cell text and section titles.
    case edit
    /// Insert rows and sections, and import into the table.
    case insert

    /// Parses an action name; unknown names are `InvalidArgument` listing the valid ones.
    public init(parsing name: String) throws(CliptabError) {
        guard let action = TableAction(rawValue: name) else {
            let valid = TableAction.allCases.map(\.rawValue).joined(separator: ", ")
            throw CliptabError(.invalidArgument, "unknown action \(Quotation.quoted(name)) (valid: \(valid))")
        }
        self = action
    }
}
