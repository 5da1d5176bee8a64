// SPDX-License-Identifier: MIT
import CliptabContract
import DBus

/// A change signal of the interface (`docs/dbus-api.md`, "Signals"), decoded by its name and
/// signature: the one reader of what the daemon's `CliptabSignal` writes.
public enum ChangeSignal: Equatable, Sendable {
    /// `TableAdded(s table)`.
    case tableAdded(table: String)
    /// `TableRemoved(s table)`.
    case tableRemoved(table: String)
    /// `TableRenamed(s old_name, s new_name)`.
    case tableRenamed(oldName: String, newName: String)
    /// `SectionsInserted(s table, t revision, ai sections)`.
    case sectionsInserted(table: String, revision: UInt64, sections: [Int32])
    /// `SectionsDeleted(s table, t revision, ai sections)`.
    case sectionsDeleted(table: String, revision: UInt64, sections: [Int32])
    /// `SectionMoved(s table, t revision, i from, i to)`.
    case sectionMoved(table: String, revision: UInt64, from: Int32, to: Int32)
    /// `SectionChanged(s table, t revision, i section)`.
    case sectionChanged(table: String, revision: UInt64, section: Int32)
    /// `RowsInserted(s table, t revision, ai sections, ai rows)`, as paths.
    case rowsInserted(table: String, revision: UInt64, paths: [CellPath])
    /// `RowsDeleted(s table, t revision, ai sections, ai rows)`, as paths.
    case rowsDeleted(table: String, revision: UInt64, paths: [CellPath])
    /// `RowMoved(s table, t revision, i from_section, i from_row, i to_section, i to_row)`.
    case rowMoved(table: String, revision: UInt64, from: CellPath, to: CellPath)
    /// `RowsChanged(s table, t revision, ai sections, ai rows)`, as paths.
    case rowsChanged(table: String, revision: UInt64, paths: [CellPath])
    /// `ClipboardChanged(b owned, t row_id)`.
    case clipboardChanged(owned: Bool, rowID: UInt64)

    /// Decodes a signal of the cliptab interface; nil for another interface, another signal
    /// (a later version's) or an unexpected signature.
    public init?(_ message: BusMessage) {
        guard message.type == .signal, message.interface == CliptabBus.interface, let member = message.member,
            let values = try? message.readValues()
        else { return nil }
        self.init(member: member, values: values)
    }

    /// Decodes `values` of the signal `member`; nil for an unknown member or signature.
    public init?(member: String, values: [BusValue]) {
        let v = values
        func count(_ expected: Int) -> Bool { v.count == expected }
        func paths() -> [CellPath]? {
            guard let sections = try? v.int32s(at: 2), let rows = try? v.int32s(at: 3),
                sections.count == rows.count
            else { return nil }
            return zip(sections, rows).map { CellPath(section: $0, row: $1) }
        }
        switch member {
        case "TableAdded":
            guard count(1), let table = try? v.string(at: 0) else { return nil }
            self = .tableAdded(table: table)
        case "TableRemoved":
            guard count(1), let table = try? v.string(at: 0) else { return nil }
            self = .tableRemoved(table: table)
        case "TableRenamed":
            guard count(2), let old = try? v.string(at: 0), let new = try? v.string(at: 1) else { return nil }
            self = .tableRenamed(oldName: old, newName: new)
        case "ClipboardChanged":
            guard count(2), let owned = try? v.boolean(at: 0), let id = try? v.uint64(at: 1) else {
                return nil
            }
            self = .clipboardChanged(owned: owned, rowID: id)
        default:
            guard let table = try? v.string(at: 0), let revision = try? v.uint64(at: 1) else { return nil }
            switch member {
            case "SectionsInserted", "SectionsDeleted":
                guard count(3), let sections = try? v.int32s(at: 2) else { return nil }
                self =
                    member == "SectionsInserted"
                    ? .sectionsInserted(table: table, revision: revision, sections: sections)
                    : .sectionsDeleted(table: table, revision: revision, sections: sections)
            case "SectionMoved":
                guard count(4), let from = try? v.int32(at: 2), let to = try? v.int32(at: 3) else {
                    return nil
                }
                self = .sectionMoved(table: table, revision: revision, from: from, to: to)
            case "SectionChanged":
                guard count(3), let section = try? v.int32(at: 2) else { return nil }
                self = .sectionChanged(table: table, revision: revision, section: section)
            case "RowsInserted":
                guard count(4), let paths = paths() else { return nil }
                self = .rowsInserted(table: table, revision: revision, paths: paths)
            case "RowsDeleted":
                guard count(4), let paths = paths() else { return nil }
                self = .rowsDeleted(table: table, revision: revision, paths: paths)
            case "RowsChanged":
                guard count(4), let paths = paths() else { return nil }
                self = .rowsChanged(table: table, revision: revision, paths: paths)
            case "RowMoved":
                guard count(6), let fs = try? v.int32(at: 2), let fr = try? v.int32(at: 3),
                    let ts = try? v.int32(at: 4), let tr = try? v.int32(at: 5)
                else { return nil }
                self = .rowMoved(
                    table: table, revision: revision, from: CellPath(section: fs, row: fr),
                    to: CellPath(section: ts, row: tr))
            default:
                return nil
            }
        }
    }

    /// The table the signal names first (the old name of a rename), nil for the clipboard.
    public var table: String? {
        switch self {
        case .tableAdded(let table), .tableRemoved(let table), .tableRenamed(let table, _),
            .sectionsInserted(let table, _, _), .sectionsDeleted(let table, _, _),
            .sectionMoved(let table, _, _, _), .sectionChanged(let table, _, _),
            .rowsInserted(let table, _, _),
            .rowsDeleted(let table, _, _), .rowMoved(let table, _, _, _), .rowsChanged(let table, _, _):
            return table
        case .clipboardChanged:
            return nil
        }
    }

    /// The table's revision after the change, for the section and row signals.
    public var revision: UInt64? {
        switch self {
        case .sectionsInserted(_, let revision, _), .sectionsDeleted(_, let revision, _),
            .sectionMoved(_, let revision, _, _), .sectionChanged(_, let revision, _),
            .rowsInserted(_, let revision, _), .rowsDeleted(_, let revision, _),
            .rowMoved(_, let revision, _, _),
            .rowsChanged(_, let revision, _):
            return revision
        case .tableAdded, .tableRemoved, .tableRenamed, .clipboardChanged:
            return nil
        }
    }
}
