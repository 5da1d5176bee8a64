// SPDX-License-Identifier: MIT

/// The context menu: allowed actions and the secret flag.
extension TableService {
    /// The context menu of a cell: the allowed actions in the contract's order.
    public func actions(_ name: String, section: Int32, row: Int32) throws -> [TableAction] {
        let table = try table(name)
        _ = try Self.path(table, section, row)
        return table.record.allowedActions.actions
    }

    /// Whether `action` may be performed on the cell.
    public func canPerform(_ name: String, action: String, section: Int32, row: Int32) throws -> Bool {
        let parsed = try TableAction(parsing: action)
        let table = try table(name)
        _ = try Self.path(table, section, row)
        return table.record.allowedActions.allows(parsed)
    }

    /// Sets the table's allowed actions (each name must be valid).
    public func setAllowedActions(_ name: String, _ actions: [String]) throws {
        let table = try table(name)
        var parsed: [TableAction] = []
        for action in actions { parsed.append(try TableAction(parsing: action)) }
        var record = table.record
        record.allowedActions = ActionSet(parsed)
        try commit([.updateTable(record)], [])
    }

    /// Marks the table secret or not.
    public func setSecret(_ name: String, _ isSecret: Bool) throws {
        var record = try table(name).record
        record.isSecret = isSecret
        try commit([.updateTable(record)], [])
    }
}
