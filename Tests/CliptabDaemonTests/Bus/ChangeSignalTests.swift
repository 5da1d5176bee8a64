// SPDX-License-Identifier: MIT
import CliptabClient
import CliptabContract
import CliptabCore
import CliptabDaemon
import DBus
import Testing

/// The clients' one decoder of the change signals against the daemon's one encoder: every
/// signal the daemon can send, written into a real message and read back, is the change it
/// was made from.
@Suite("Change signals round trip")
struct ChangeSignalTests {
    /// A change of every kind, with the edge values of each field.
    static let events: [TableEvent] = [
        .tableAdded("plain"), .tableRemoved("with space 'and' quotes"), .tableRenamed(from: "a", to: "ä b"),
        .sectionsInserted(table: "t", revision: 1, sections: [0, 2, Int32.max]),
        .sectionsDeleted(table: "t", revision: UInt64.max, sections: []),
        .sectionMoved(table: "t", revision: 3, from: 0, to: -1),
        .sectionChanged(table: "t", revision: 4, section: 7),
        .rowsInserted(
            table: "t", revision: 5, paths: [IndexPath(section: 0, row: 0), IndexPath(section: 1, row: 9)]),
        .rowsDeleted(table: "t", revision: 6, paths: [IndexPath(section: 2, row: 3)]),
        .rowMoved(
            table: "t", revision: 7, from: IndexPath(section: 0, row: 1), to: IndexPath(section: 3, row: 4)),
        .rowsChanged(table: "", revision: 0, paths: []),
    ]

    /// The change a decoded signal says, in the model's words.
    static func event(_ signal: ChangeSignal) -> TableEvent? {
        func paths(_ list: [CellPath]) -> [IndexPath] {
            list.map { IndexPath(section: $0.section, row: $0.row) }
        }
        switch signal {
        case .tableAdded(let table): return .tableAdded(table)
        case .tableRemoved(let table): return .tableRemoved(table)
        case .tableRenamed(let old, let new): return .tableRenamed(from: old, to: new)
        case .sectionsInserted(let table, let revision, let sections):
            return .sectionsInserted(table: table, revision: revision, sections: sections)
        case .sectionsDeleted(let table, let revision, let sections):
            return .sectionsDeleted(table: table, revision: revision, sections: sections)
        case .sectionMoved(let table, let revision, let from, let to):
            return .sectionMoved(table: table, revision: revision, from: from, to: to)
        case .sectionChanged(let table, let revision, let section):
            return .sectionChanged(table: table, revision: revision, section: section)
        case .rowsInserted(let table, let revision, let list):
            return .rowsInserted(table: table, revision: revision, paths: paths(list))
        case .rowsDeleted(let table, let revision, let list):
            return .rowsDeleted(table: table, revision: revision, paths: paths(list))
        case .rowMoved(let table, let revision, let from, let to):
            return .rowMoved(
                table: table, revision: revision, from: IndexPath(section: from.section, row: from.row),
                to: IndexPath(section: to.section, row: to.row))
        case .rowsChanged(let table, let revision, let list):
            return .rowsChanged(table: table, revision: revision, paths: paths(list))
        case .clipboardChanged: return nil
        }
    }

    /// `signal` as the bus carries it: a signal message of the interface, read back.
    static func sent(_ signal: CliptabSignal) throws -> BusMessage {
        let message = try BusMessage.signal(
            path: CliptabBus.path, interface: CliptabBus.interface, member: signal.declaration.name)
        try message.append(signal.values)
        return message
    }

    @Test("every change decodes to itself")
    func changes() throws {
        for event in Self.events {
            let decoded = ChangeSignal(try Self.sent(CliptabSignal(event)))
            #expect(
                decoded.flatMap(Self.event) == event, "\(event) came back as \(String(describing: decoded))")
        }
    }

    @Test("the clipboard signal decodes to itself")
    func clipboard() throws {
        for (owned, id) in [(true, UInt64(42)), (false, 0), (true, UInt64.max)] {
            let decoded = ChangeSignal(try Self.sent(CliptabSignal.clipboard(owned: owned, rowID: id)))
            #expect(decoded == .clipboardChanged(owned: owned, rowID: id))
        }
    }

    @Test("the catalogue covers every signal the contract declares")
    func coverage() throws {
        // SequenceChanged is followed with GetSequence's values (`SequencePosition`), not here.
        let sentNames = Set(
            Self.events.map { CliptabSignal($0).declaration.name } + ["ClipboardChanged", "SequenceChanged"])
        #expect(sentNames == Set(CliptabSignal.declarations.map(\.name)))
    }

    @Test("a signal of another shape or interface is not decoded")
    func refusals() throws {
        #expect(ChangeSignal(member: "TableAdded", values: [.int32(1)]) == nil)
        #expect(ChangeSignal(member: "TableAdded", values: [.string("a"), .string("b")]) == nil)
        #expect(
            ChangeSignal(
                member: "RowsInserted",
                values: [
                    .string("t"), .uint64(1), .array(elementSignature: "i", [.int32(0)]),
                    .array(elementSignature: "i", []),
                ]) == nil)
        #expect(ChangeSignal(member: "RowsAppeared", values: [.string("t")]) == nil)
        let other = try BusMessage.signal(
            path: CliptabBus.path, interface: "org.example.Other", member: "TableAdded")
        try other.append([.string("t")])
        #expect(ChangeSignal(other) == nil)
    }
}
