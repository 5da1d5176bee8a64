// SPDX-License-Identifier: MIT

/// A set of table actions, kept in the contract's order.
public struct ActionSet: OptionSet, Sendable, Hashable {
    /// The bits, one per action in `TableAction.allCases` order.
    public let rawValue: UInt8

    /// Makes a set from its bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue & 0x7F }

    /// The set holding exactly `action`.
    public init(_ action: TableAction) {
        let position = TableAction.allCases.firstIndex(of: action) ?? 0
        self.init(rawValue: 1 << UInt8(position))
    }

    /// The set of the given actions.
    public init(_ actions: [TableAction]) {
        self.init(rawValue: actions.reduce(0) { $0 | ActionSet($1).rawValue })
    }

    /// Every action: the default of a new table.
    public static let all = ActionSet(TableAction.allCases)

    /// True when `action` is in the set.
    public func allows(_ action: TableAction) -> Bool { contains(ActionSet(action)) }

    /// The actions in the contract's order.
    public var actions: [TableAction] { TableAction.allCases.filter(allows) }
}
