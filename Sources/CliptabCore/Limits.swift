// SPDX-License-Identifier: MIT

/// The limits on what clients may store, each configurable.
public struct Limits: Equatable, Sendable {
    /// The longest table name, in UTF-8 bytes (fixed by the contract).
    public static let maxNameBytes = 255

    /// The largest cell text (and header or footer title), in UTF-8 bytes.
    public var maxCellBytes: Int
    /// The most rows one table may hold.
    public var maxRowsPerTable: Int
    /// The most sections one table may hold.
    public var maxSectionsPerTable: Int

    /// The contract's defaults: 16 MiB cells, 1,000,000 rows and 10,000 sections per table.
    public static let defaults = Limits(
        maxCellBytes: 16 << 20, maxRowsPerTable: 1_000_000, maxSectionsPerTable: 10_000)

    /// Makes a set of limits.
    public init(maxCellBytes: Int, maxRowsPerTable: Int, maxSectionsPerTable: Int) {
        self.maxCellBytes = maxCellBytes
        self.maxRowsPerTable = maxRowsPerTable
        self.maxSectionsPerTable = maxSectionsPerTable
    }

    /// Checks that `text` fits in a cell; `what` names it in the error ("row text", "header").
    public func checkCell(_ text: String, what: String = "cell text") throws(CliptabError) {
        let size = text.utf8.count
        if size > maxCellBytes {
            throw CliptabError(
                .limitExceeded, "\(what) is \(size) bytes; the limit is \(maxCellBytes) bytes")
        }
        // D-Bus strings cannot carry NUL, so a cell holding one could never be read back.
        if text.utf8.contains(0) {
            throw CliptabError(.invalidArgument, "\(what) contains a NUL character, which cannot be stored")
        }
    }
}

/// Validation of table names.
public enum TableName {
    /// Throws `InvalidName` unless `name` is 1…255 bytes of UTF-8 without control
    /// characters or `/`.
    public static func validate(_ name: String) throws(CliptabError) {
        if name.isEmpty { throw CliptabError(.invalidName, "a table name cannot be empty") }
        let size = name.utf8.count
        if size > Limits.maxNameBytes {
            throw CliptabError(
                .invalidName, "table name is \(size) bytes long; the limit is \(Limits.maxNameBytes)")
        }
        for scalar in name.unicodeScalars {
            if scalar == "/" {
                throw CliptabError(
                    .invalidName, "table name \"\(name)\" contains \"/\", which is not allowed")
            }
            // C0 and C1 control characters and DEL (Unicode category Cc).
            if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
                let code = String(scalar.value, radix: 16, uppercase: true)
                throw CliptabError(
                    .invalidName, "table name contains the control character U+\(code), which is not allowed")
            }
        }
    }
}

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
            throw CliptabError(.invalidArgument, "unknown action \"\(name)\" (valid: \(valid))")
        }
        self = action
    }
}

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
