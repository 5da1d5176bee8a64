// SPDX-License-Identifier: MIT
import CliptabCore

/// What a `[table "NAME"]` section asks for: the table exists, with these settings.
///
/// A key left out leaves that setting of the table as it is.
public struct TableSettings: Equatable, Sendable {
    /// The table's name.
    public var name: String
    /// The allowed actions (`actions =`), or nil to leave them.
    public var actions: ActionSet?
    /// Whether the table is secret (`secret =`), or nil to leave it.
    public var isSecret: Bool?
    /// Whether the table's rows are templates (`templates =`), or nil to leave it.
    public var isTemplates: Bool?

    /// Makes the settings of one table.
    public init(name: String, actions: ActionSet? = nil, isSecret: Bool? = nil, isTemplates: Bool? = nil) {
        self.name = name
        self.actions = actions
        self.isSecret = isSecret
        self.isTemplates = isTemplates
    }
}
