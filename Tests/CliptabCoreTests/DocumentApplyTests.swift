// SPDX-License-Identifier: MIT
import CliptabCore
import ModelTestSupport
import Testing

/// Applying a table document: the identity rules, the fewest changes, the events a replica
/// follows, and the refusals that change nothing.
@Suite struct DocumentApplyTests {
    /// Applies `document` to "t", checks that the table then equals it and that a replica
    /// of the table before follows the events to the table after; the counts.
    @discardableResult
    static func apply(
        _ recorder: ServiceRecorder, _ document: TableDocument, revision: UInt64 = 0,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> ApplyCounts {
        let before = recorder.service.catalog.tables["t"]
        var replica = TableReplica(before)
        _ = recorder.takeEvents()
        let result = try recorder.service.apply("t", document: document, revision: revision, dryRun: false)
        let events = recorder.takeEvents()
        let after = try #require(recorder.service.catalog.tables["t"], sourceLocation: sourceLocation)
        var expected = document
        expected.templates = after.record.isTemplates ? true : nil
        expected.actions = after.record.allowedActions == .all ? nil : after.record.allowedActions
        #expect(try recorder.service.document(of: "t") == expected, sourceLocation: sourceLocation)
        #expect(replica.follow(events, table: "t") == nil, sourceLocation: sourceLocation)
        #expect(replica.disagreement(with: after) == nil, "\(events)", sourceLocation: sourceLocation)
        #expect(result.revision == after.record.revision, sourceLocation: sourceLocation)
        if let before, !result.counts.changesContent {
            #expect(
                events.isEmpty && after.record.revision == before.record.revision,
                sourceLocation: sourceLocation)
        }
        return result.counts
    }

    /// A table "t" of `sections` (header, rows of (name, text)).
    static func table(_ sections: [(String, [(String, String)])]) throws -> ServiceRecorder {
        let recorder = ServiceRecorder()
        try recorder.service.apply("t", document: document(sections), revision: 0, dryRun: false)
        _ = recorder.takeEvents()
        return recorder
    }

    static func document(_ sections: [(String, [(String, String)])]) -> TableDocument {
        TableDocument(
            sections: sections.map { header, rows in
                DocumentSection(header: header, rows: rows.map { DocumentRow(name: $0.0, text: $0.1) })
            })
    }

    static func ids(_ recorder: ServiceRecorder) throws -> [[UInt64]] { try recorder.ids("t") }

    @Test func aNamedRowFollowsItsNameAcrossSections() throws {
        let recorder = try Self.table([("A", [("sig", "Best"), ("", "one")]), ("B", [("", "two")])])
        let sig = try Self.ids(recorder)[0][0]
        let counts = try Self.apply(
            recorder, Self.document([("A", [("", "one")]), ("B", [("", "two"), ("sig", "Regards")])]))
        #expect(try Self.ids(recorder)[1][1] == sig)
        #expect(
            counts.rowsMoved == 1 && counts.rowsChanged == 1 && counts.rowsAdded == 0
                && counts.rowsDeleted == 0)
    }

    @Test func unnamedRowsAreFoundByTextFirstUnmatchedFirst() throws {
        let recorder = try Self.table([("", [("", "a"), ("", "x"), ("", "a"), ("", "b")])])
        let old = try Self.ids(recorder)[0]
        let counts = try Self.apply(recorder, Self.document([("", [("", "b"), ("", "a"), ("", "a")])]))
        #expect(try Self.ids(recorder)[0] == [old[3], old[0], old[2]])
        #expect(counts.rowsMoved == 1 && counts.rowsDeleted == 1 && counts.rowsChanged == 0)
    }

    @Test func sectionsAreMatchedByHeaderThenInOrder() throws {
        let recorder = try Self.table([("A", [("", "1")]), ("B", [("", "2")]), ("C", [("", "3")])])
        let old = try Self.ids(recorder)
        let counts = try Self.apply(
            recorder, Self.document([("C", [("", "3")]), ("A", [("", "1")]), ("B2", [("", "2")])]))
        #expect(try Self.ids(recorder) == [old[2], old[0], old[1]])
        #expect(try recorder.headers("t") == ["C", "A", "B2"])
        #expect(counts.sectionsMoved == 1 && counts.sectionsChanged == 1 && counts.sectionsAdded == 0)
        #expect(counts.rowsMoved == 0)
    }

    @Test func anEditInPlaceKeepsTheRow() throws {
        let recorder = try Self.table([("", [("", "a"), ("", "b"), ("", "c"), ("x", "d")])])
        let old = try Self.ids(recorder)[0]
        let counts = try Self.apply(
            recorder, Self.document([("", [("", "a"), ("", "B!"), ("", "c"), ("", "d2")])]))
        #expect(try Self.ids(recorder)[0] == old)
        #expect(
            counts
                == {
                    var c = ApplyCounts(); c.rowsChanged = 2; return c
                }())
        #expect(recorder.service.catalog.tables["t"]?.names.isEmpty == true)
    }

    @Test func whatIsLeftIsInsertedOrDeleted() throws {
        let recorder = try Self.table([("A", [("", "a")]), ("B", [("", "b")])])
        let counts = try Self.apply(recorder, Self.document([("A", [("", "a"), ("n", "new")])]))
        #expect(counts.rowsAdded == 1 && counts.rowsDeleted == 1 && counts.sectionsDeleted == 1)
        #expect(recorder.service.catalog.tables["t"]?.names.place(of: "n") != nil)
    }

    @Test func nothingChangedSendsNothing() throws {
        let recorder = try Self.table([("A", [("sig", "a"), ("", "b")]), ("", [])])
        let revision = try recorder.service.revision(of: "t")
        let commits = recorder.persistence.committed.count
        let counts = try Self.apply(recorder, try recorder.service.document(of: "t"), revision: revision)
        #expect(counts.isEmpty)
        #expect(recorder.persistence.committed.count == commits)
        #expect(try recorder.service.revision(of: "t") == revision)
    }

    @Test func aStaleRevisionIsRefusedAndChangesNothing() throws {
        let recorder = try Self.table([("", [("", "a")])])
        let revision = try recorder.service.revision(of: "t")
        try recorder.service.insertRow("t", section: 0, row: -1, text: "meanwhile")
        recorder.expectRefused(.revisionMismatch, mentioning: ["changed since revision \(revision)"]) {
            _ = try recorder.service.apply(
                "t", document: Self.document([("", [])]), revision: revision, dryRun: false)
        }
    }

    @Test func aDryRunCountsAndChangesNothing() throws {
        let recorder = try Self.table([("", [("", "a"), ("", "b")])])
        let catalog = recorder.service.catalog
        let result = try recorder.service.apply(
            "t", document: Self.document([("", [("", "b"), ("", "c")])]), revision: 0, dryRun: true)
        #expect(
            result.counts.rowsDeleted == 1 && result.counts.rowsAdded == 1 && result.counts.rowsMoved == 0)
        #expect(recorder.service.catalog == catalog)
        #expect(recorder.takeEvents().isEmpty)
    }

    @Test func badDocumentsAreRefused() throws {
        let recorder = try Self.table([("", [("", "a")])])
        recorder.expectRefused(.invalidName) {
            _ = try recorder.service.apply(
                "t", document: Self.document([("", [("9x", "a")])]), revision: 0, dryRun: false)
        }
        recorder.expectRefused(.nameInUse) {
            _ = try recorder.service.apply(
                "t", document: Self.document([("", [("x", "a"), ("x", "b")])]), revision: 0, dryRun: false)
        }
        try recorder.service.setAllowedActions("t", ["copy", "edit"])
        recorder.expectRefused(.notPermitted, mentioning: ["delete"]) {
            _ = try recorder.service.apply(
                "t", document: Self.document([("", [])]), revision: 0, dryRun: false)
        }
    }

    @Test func settingsAloneKeepTheRevision() throws {
        let recorder = try Self.table([("", [("", "a")])])
        let revision = try recorder.service.revision(of: "t")
        var document = try recorder.service.document(of: "t")
        document.actions = ActionSet([.copy, .paste])
        let counts = try Self.apply(recorder, document)
        #expect(counts.settingsChanged == 1 && !counts.changesContent)
        #expect(try recorder.service.revision(of: "t") == revision)
        #expect(try recorder.service.record(of: "t").allowedActions == ActionSet([.copy, .paste]))
    }

    @Test func aMissingTableIsCreated() throws {
        let recorder = ServiceRecorder()
        var replica = TableReplica(nil)
        try recorder.service.apply(
            "t", document: Self.document([("H", [("a", "x")]), ("", [])]), revision: 0, dryRun: false)
        #expect(replica.follow(recorder.takeEvents(), table: "t") == nil)
        #expect(replica.disagreement(with: try #require(recorder.service.catalog.tables["t"])) == nil)
        #expect(try recorder.headers("t") == ["H", ""])
    }
}
