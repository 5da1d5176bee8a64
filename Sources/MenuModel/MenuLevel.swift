// SPDX-License-Identifier: MIT

/// What a level of the menu is for, which decides what Enter does there.
public enum MenuLevel: Equatable, Sendable {
    /// The list of tables (no TABLE given).
    case tables
    /// A table's sections and rows.
    case rows(table: String)
    /// A row's context-menu actions.
    case actions(MenuRow)
    /// Where a row is moved to.
    case destination(MenuRow)
    /// The new text of a row (`edit`).
    case edit(MenuRow)
    /// The text of a row inserted at a row's place (`insert`).
    case insert(MenuRow)
    /// The value of a template row's next input, before the row is used by `action`
    /// (`paste` or `copy`); `values` holds those of the inputs before it.
    case fill(MenuRow, action: String, inputs: [MenuInput], values: [String])
}

/// What the menu asks its owner to do after a key.
public enum MenuRequest: Equatable, Sendable {
    /// Nothing beyond drawing again.
    case none
    /// Close, changing nothing.
    case close
    /// Open the table: fetch its outline and push its rows.
    case openTable(String)
    /// The default action on the row (paste, or copy).
    case chooseRow(MenuRow)
    /// Fetch the row's actions and push them.
    case showActions(MenuRow)
    /// Perform `action` on the row; `move`, `edit` and `insert` come back as the requests
    /// below once their destination or text is chosen.
    case perform(action: String, row: MenuRow)
    /// Push the row's destinations for `move`.
    case chooseDestination(MenuRow)
    /// Push a text input with the row's current text for `edit`.
    case startEdit(MenuRow)
    /// Move the row so that its final place is `toSection`, `toRow`.
    case move(MenuRow, toSection: Int, toRow: Int)
    /// Set the row's text.
    case setText(MenuRow, String)
    /// Insert a row with `text` at the row's place.
    case insert(MenuRow, String)
    /// Use a template row by `action` (`paste` or `copy`) with the values of its inputs.
    case fillIn(MenuRow, action: String, labels: [String], values: [String])
}
