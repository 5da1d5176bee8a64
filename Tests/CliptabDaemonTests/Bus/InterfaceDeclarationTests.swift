// SPDX-License-Identifier: MIT
import CliptabCore
import CliptabDaemon
import DBus
import Testing

/// The interface's description without a service: the introspection XML, and every
/// committed change published under its own typed signal.
struct InterfaceDeclarationTests {
    /// The description alone makes the XML in the repository, with no service built.
    @Test func declarationMakesTheRepositoryXML() throws {
        let file = try readFile(repositoryFile("Sources/CliptabDaemon/Bus/io.github.cliptab.Cliptab1.xml"))
        #expect(CliptabInterface.introspectionXML == file)
        let interface = CliptabInterface.declaration
        #expect(interface.signals == CliptabInterface.signals)
        try interface.validate()
    }

    /// Each kind of change goes out under its own declaration, with values of its signature.
    @Test func everyEventHasItsSignal() {
        let path = IndexPath(section: 1, row: 2)
        let events: [(TableEvent, BusSignal)] = [
            (.tableAdded("t"), CliptabSignal.tableAdded),
            (.tableRemoved("t"), CliptabSignal.tableRemoved),
            (.tableRenamed(from: "a", to: "b"), CliptabSignal.tableRenamed),
            (.sectionsInserted(table: "t", revision: 1, sections: [0]), CliptabSignal.sectionsInserted),
            (.sectionsDeleted(table: "t", revision: 1, sections: [0, 1]), CliptabSignal.sectionsDeleted),
            (.sectionMoved(table: "t", revision: 1, from: 0, to: 1), CliptabSignal.sectionMoved),
            (.sectionChanged(table: "t", revision: 1, section: 0), CliptabSignal.sectionChanged),
            (.rowsInserted(table: "t", revision: 1, paths: [path]), CliptabSignal.rowsInserted),
            (.rowsDeleted(table: "t", revision: 1, paths: [path]), CliptabSignal.rowsDeleted),
            (.rowMoved(table: "t", revision: 1, from: path, to: path), CliptabSignal.rowMoved),
            (.rowsChanged(table: "t", revision: 1, paths: []), CliptabSignal.rowsChanged),
        ]
        var seen: [String] = []
        for (event, declaration) in events {
            let signal = CliptabSignal(event)
            #expect(signal.declaration == declaration, "\(event)")
            #expect(signal.values.map(\.signature).joined() == declaration.signature, "\(event)")
            seen.append(signal.declaration.name)
        }
        let clipboard = CliptabSignal.clipboard(owned: true, rowID: 7)
        #expect(clipboard.values == [.boolean(true), .uint64(7)])
        #expect(clipboard.values.map(\.signature).joined() == clipboard.declaration.signature)
        seen.append(clipboard.declaration.name)
        let sequence = CliptabSignal.sequence(
            SequenceStatus(table: "t", section: 1, header: "Address", position: 2, count: 5))
        #expect(sequence.values.map(\.signature).joined() == sequence.declaration.signature)
        #expect(CliptabSignal.sequence(nil).values.map(\.signature) == sequence.values.map(\.signature))
        seen.append(sequence.declaration.name)
        // Every declared signal is reached by some change, each by exactly one.
        #expect(seen == CliptabInterface.signals.map(\.name))
    }
}
