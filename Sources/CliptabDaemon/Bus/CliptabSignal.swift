// SPDX-License-Identifier: MIT
import CliptabCore
import DBus

/// A signal of the interface ready to emit: the declaration it goes out under and the
/// values it carries.
///
/// Each change is matched to its declaration by a switch over the event, never by a name
/// looked up at run time, so a change without a signal does not compile.
public struct CliptabSignal: Equatable {
    /// The declaration (name and arguments) the signal is emitted under.
    public let declaration: BusSignal
    /// The values, in the declaration's order.
    public let values: [BusValue]

    // MARK: - Declarations

    /// `TableAdded(s table)`.
    public static let tableAdded = BusSignal(name: "TableAdded", arguments: [arg("table", "s")])
    /// `TableRemoved(s table)`.
    public static let tableRemoved = BusSignal(name: "TableRemoved", arguments: [arg("table", "s")])
    /// `TableRenamed(s old_name, s new_name)`.
    public static let tableRenamed = BusSignal(
        name: "TableRenamed", arguments: [arg("old_name", "s"), arg("new_name", "s")])
    /// `SectionsInserted(s table, t revision, ai sections)`.
    public static let sectionsInserted = BusSignal(
        name: "SectionsInserted", arguments: [arg("table", "s"), arg("revision", "t"), arg("sections", "ai")])
    /// `SectionsDeleted(s table, t revision, ai sections)`.
    public static let sectionsDeleted = BusSignal(
        name: "SectionsDeleted", arguments: [arg("table", "s"), arg("revision", "t"), arg("sections", "ai")])
    /// `SectionMoved(s table, t revision, i from, i to)`.
    public static let sectionMoved = BusSignal(
        name: "SectionMoved",
        arguments: [arg("table", "s"), arg("revision", "t"), arg("from", "i"), arg("to", "i")])
    /// `SectionChanged(s table, t revision, i section)`.
    public static let sectionChanged = BusSignal(
        name: "SectionChanged", arguments: [arg("table", "s"), arg("revision", "t"), arg("section", "i")])
    /// `RowsInserted(s table, t revision, ai sections, ai rows)`.
    public static let rowsInserted = BusSignal(
        name: "RowsInserted",
        arguments: [arg("table", "s"), arg("revision", "t"), arg("sections", "ai"), arg("rows", "ai")])
    /// `RowsDeleted(s table, t revision, ai sections, ai rows)`.
    public static let rowsDeleted = BusSignal(
        name: "RowsDeleted",
        arguments: [arg("table", "s"), arg("revision", "t"), arg("sections", "ai"), arg("rows", "ai")])
    /// `RowMoved(s table, t revision, i from_section, i from_row, i to_section, i to_row)`.
    public static let rowMoved = BusSignal(
        name: "RowMoved",
        arguments: [
            arg("table", "s"), arg("revision", "t"), arg("from_section", "i"), arg("from_row", "i"),
            arg("to_section", "i"), arg("to_row", "i"),
        ])
    /// `RowsChanged(s table, t revision, ai sections, ai rows)`.
    public static let rowsChanged = BusSignal(
        name: "RowsChanged",
        arguments: [arg("table", "s"), arg("revision", "t"), arg("sections", "ai"), arg("rows", "ai")])
    /// `ClipboardChanged(b owned, t row_id)`.
    public static let clipboardChanged = BusSignal(
        name: "ClipboardChanged", arguments: [arg("owned", "b"), arg("row_id", "t")])

    /// `SequenceChanged(b running, s table, i section, s header, u position, u count)`
    /// (API version 4).
    public static let sequenceChanged = BusSignal(
        name: "SequenceChanged",
        arguments: [
            arg("running", "b"), arg("table", "s"), arg("section", "i"), arg("header", "s"),
            arg("position", "u"), arg("count", "u"),
        ])

    /// Every signal of the contract, in the contract's order.
    public static let declarations: [BusSignal] = [
        tableAdded, tableRemoved, tableRenamed, sectionsInserted, sectionsDeleted, sectionMoved,
        sectionChanged, rowsInserted, rowsDeleted, rowMoved, rowsChanged, clipboardChanged, sequenceChanged,
    ]

    // MARK: - Signals

    /// The signal of a committed change.
    public init(_ event: TableEvent) {
        func paths(_ list: [IndexPath]) -> [BusValue] {
            [int32s(list.map(\.section)), int32s(list.map(\.row))]
        }
        switch event {
        case .tableAdded(let name):
            self.init(Self.tableAdded, [.string(name)])
        case .tableRemoved(let name):
            self.init(Self.tableRemoved, [.string(name)])
        case .tableRenamed(let old, let new):
            self.init(Self.tableRenamed, [.string(old), .string(new)])
        case .sectionsInserted(let table, let revision, let sections):
            self.init(Self.sectionsInserted, [.string(table), .uint64(revision), int32s(sections)])
        case .sectionsDeleted(let table, let revision, let sections):
            self.init(Self.sectionsDeleted, [.string(table), .uint64(revision), int32s(sections)])
        case .sectionMoved(let table, let revision, let from, let to):
            self.init(Self.sectionMoved, [.string(table), .uint64(revision), .int32(from), .int32(to)])
        case .sectionChanged(let table, let revision, let section):
            self.init(Self.sectionChanged, [.string(table), .uint64(revision), .int32(section)])
        case .rowsInserted(let table, let revision, let list):
            self.init(Self.rowsInserted, [.string(table), .uint64(revision)] + paths(list))
        case .rowsDeleted(let table, let revision, let list):
            self.init(Self.rowsDeleted, [.string(table), .uint64(revision)] + paths(list))
        case .rowMoved(let table, let revision, let from, let to):
            self.init(
                Self.rowMoved,
                [
                    .string(table), .uint64(revision), .int32(from.section), .int32(from.row),
                    .int32(to.section), .int32(to.row),
                ])
        case .rowsChanged(let table, let revision, let list):
            self.init(Self.rowsChanged, [.string(table), .uint64(revision)] + paths(list))
        }
    }

    /// The signal of a sequence's move: where it is, or (nil) that none runs.
    public static func sequence(_ status: SequenceStatus?) -> CliptabSignal {
        CliptabSignal(sequenceChanged, sequenceValues(status))
    }

    /// A sequence's status as `SequenceChanged` and `GetSequence` carry it.
    static func sequenceValues(_ status: SequenceStatus?) -> [BusValue] {
        guard let status else {
            return [.boolean(false), .string(""), .int32(0), .string(""), .uint32(0), .uint32(0)]
        }
        return [
            .boolean(true), .string(status.table), .int32(status.section), .string(status.header),
            .uint32(UInt32(status.position)), .uint32(UInt32(status.count)),
        ]
    }

    /// The signal of a change of this daemon's hold on the clipboard.
    public static func clipboard(owned: Bool, rowID: UInt64) -> CliptabSignal {
        CliptabSignal(clipboardChanged, [.boolean(owned), .uint64(rowID)])
    }

    private init(_ declaration: BusSignal, _ values: [BusValue]) {
        self.declaration = declaration
        self.values = values
    }
}
