// SPDX-License-Identifier: MIT

/// A table's settings and identity, as the store keeps them.
public struct TableRecord: Equatable, Sendable {
    /// The store's id of the table (stable across renames).
    public var id: UInt64
    /// The table's unique name.
    public var name: String
    /// +1 for every call that changed the content.
    public var revision: UInt64
    /// The context-menu actions clients may perform.
    public var allowedActions: ActionSet
    /// Whether copies are secret (password-manager hint, cleared after a timeout).
    public var isSecret: Bool
    /// Whether its rows are templates, filled in when copied or pasted (API version 3).
    public var isTemplates: Bool

    /// Makes a record.
    public init(
        id: UInt64, name: String, revision: UInt64, allowedActions: ActionSet, isSecret: Bool,
        isTemplates: Bool = false
    ) {
        self.id = id
        self.name = name
        self.revision = revision
        self.allowedActions = allowedActions
        self.isSecret = isSecret
        self.isTemplates = isTemplates
    }
}
