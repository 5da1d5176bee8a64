// SPDX-License-Identifier: MIT
import CliptabClient
import MenuModel

/// Template rows: the inputs the menu asks for in its input line, and the row used with
/// their values.
extension CliptabClient {
    /// The `{input:…}` labels of the row, with their defaults; none for a row of a table
    /// without templates, or from a daemon without them.
    public func templateInputs(_ row: MenuRow) throws(ClientFailure) -> [MenuInput] {
        try templateInputs(Self.tableCell(row)).map {
            MenuInput(label: $0.label, defaultValue: $0.defaultValue)
        }
    }

    /// Uses the row by `action` with the inputs' values: pastes it into the focused window
    /// (`PasteWithInputs`), or copies it (`CopyWithInputs`).
    public func use(_ row: MenuRow, action: String, labels: [String], values: [String]) throws(ClientFailure)
    {
        let given = Array(zip(labels, values).map { (label: $0, value: $1) })
        if action == "paste" {
            _ = try paste(Self.tableCell(row), inputs: given)
        } else {
            try copy(Self.tableCell(row), inputs: given)
        }
    }
}
