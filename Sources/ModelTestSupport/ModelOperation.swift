// SPDX-License-Identifier: MIT
import CliptabCore

/// One call of the service, with its arguments.
enum ModelOperation {
    /// `createTable(name)`.
    case createTable(String)
    /// `dropTable(name)`.
    case dropTable(String)
    /// `renameTable(name, to:)`.
    case renameTable(String, String)
    /// `insertSection(table, at:, header:, footer:)`.
    case insertSection(String, Int32, String, String)
    /// `deleteSections(table, indexes)`.
    case deleteSections(String, [Int32])
    /// `moveSection(table, from:, to:)`.
    case moveSection(String, Int32, Int32)
    /// `setHeader(table, section:, text:)`.
    case setHeader(String, Int32, String)
    /// `setFooter(table, section:, text:)`.
    case setFooter(String, Int32, String)
    /// `findSection(table, header:)`.
    case findSection(String, String)
    /// `insertRows(table, section:, row:, texts:, as:)`, as `insert` or `paste`.
    case insertRows(String, Int32, Int32, [String], TableAction)
    /// `setCell(table, section:, row:, text:)`.
    case setCell(String, Int32, Int32, String)
    /// `deleteRows(table, sections:, rows:, as:)`, as `delete` or `cut`.
    case deleteRows(String, [Int32], [Int32], TableAction)
    /// `deleteWhere(table, op:, operand:, dryRun:)`.
    case deleteWhere(String, String, String, Bool)
    /// `moveRow(table, from:, to:)`.
    case moveRow(String, Int32, Int32, Int32, Int32)
    /// `setAllowedActions(table, names)`.
    case setAllowedActions(String, [String])
    /// `setSecret(table, flag)`.
    case setSecret(String, Bool)
    /// `importTable(table, format:, data:, replace:)` of a `lines` document whose intended
    /// sections are given alongside its text.
    case importLines(String, String, [ReferenceSection], String, Bool)
    /// `cell(of:section:row:)`.
    case readCell(String, Int32, Int32)
    /// `rows(of:section:offset:limit:)`.
    case readRows(String, Int32, UInt32, UInt32)
    /// `sections(of:)`.
    case readSections(String)
    /// `locate(id)`.
    case locate(UInt64)
    /// `actions(table, section:, row:)`.
    case actions(String, Int32, Int32)
    /// `canPerform(table, action:, section:, row:)`.
    case canPerform(String, String, Int32, Int32)
    /// `cellForUse(of:section:row:as:)`, as `copy` or `cut`.
    case copy(String, Int32, Int32, TableAction)
    /// `sectionText(of:section:separator:)`.
    case copySection(String, Int32, String)
    /// `listTables()`.
    case listTables
    /// `setRowName(table, section:, row:, rowName:)`.
    case setRowName(String, Int32, Int32, String)
    /// `findRow(table, rowName:)`.
    case findRow(String, String)

    /// True for calls that may change something (and so may meet a failing commit).
    var mutates: Bool {
        switch self {
        case .readCell, .readRows, .readSections, .locate, .actions, .canPerform, .copy, .copySection,
            .listTables, .findSection, .findRow:
            return false
        default:
            return true
        }
    }
}
