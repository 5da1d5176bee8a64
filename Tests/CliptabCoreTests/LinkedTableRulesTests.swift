// SPDX-License-Identifier: MIT
import CliptabCore
import Testing

/// The pure rules of linked tables: which file names are tables, the settle time on a
/// virtual clock, and the mirror a service writes before it commits.
@Suite struct LinkedTableRulesTests {
    /// A file is a table by its name without `.yaml`; the rest is left alone or reported.
    @Test func fileNames() {
        #expect(LinkedFileName("snippets.yaml") == .table("snippets"))
        #expect(LinkedFileName("Mail sigs.yaml") == .table("Mail sigs"))
        #expect(LinkedFileName("a.b.yaml") == .table("a.b"))
        // Hidden files, editors' leftovers, sync tools' temporaries, other extensions.
        for name in [
            ".snippets.yaml", "snippets.yaml~", ".#snippets.yaml", "snippets.yaml.swp", ".snippets.yaml.swp",
            ".syncthing.snippets.yaml.tmp", "snippets.yml", "snippets", ".yaml", "notes.txt",
            ".cliptab-tmp-snippets.yaml.Ab12Cd",
        ] {
            #expect(LinkedFileName(name) == .ignored, "\(name)")
        }
        #expect(
            LinkedFileName("snippets.sync-conflict-20260101-120000-ABCDEFG.yaml")
                == .conflictCopy(table: "snippets"))
        guard case .invalid(let reason) = LinkedFileName("bad\u{7}name.yaml") else {
            Issue.record("a control character is not a table name")
            return
        }
        #expect(reason.contains("control character"))
        #expect(LinkedFileName.fileName(of: "snippets") == "snippets.yaml")
    }

    /// A name is due once it has been quiet for the delay; every change restarts its time.
    @Test func settleTimerOnAVirtualClock() {
        var timer = SettleTimer(delay: 100)
        #expect(timer.nextDeadline == nil && timer.isEmpty)
        timer.note("a.yaml", now: 1000)
        timer.note("b.yaml", now: 1030)
        #expect(timer.nextDeadline == 1100)
        #expect(timer.takeDue(now: 1099).isEmpty)
        // A write in steps: the second change of a.yaml moves its time on.
        timer.note("a.yaml", now: 1090)
        #expect(timer.takeDue(now: 1100).isEmpty)
        #expect(timer.nextDeadline == 1130)
        #expect(timer.takeDue(now: 1130) == ["b.yaml"])
        #expect(timer.takeDue(now: 1189).isEmpty)
        #expect(timer.takeDue(now: 1190) == ["a.yaml"])
        #expect(timer.isEmpty && timer.nextDeadline == nil)
        timer.note("c.yaml", now: 2000)
        timer.note("d.yaml", now: 2000)
        #expect(timer.takeDue(now: 5000) == ["c.yaml", "d.yaml"])
        // A longer wait for one name (a file gone, which an editor may be about to put back).
        timer.note("gone.yaml", now: 6000, after: 1000)
        timer.note("e.yaml", now: 6500)
        #expect(timer.takeDue(now: 6600) == ["e.yaml"])
        #expect(timer.takeDue(now: 6999).isEmpty && timer.nextDeadline == 7000)
        #expect(timer.takeDue(now: 7000) == ["gone.yaml"])
    }

    /// The mirror is written before the store commits, with the table as the change leaves
    /// it; a refusal or a failed write changes nothing; renames and drops are asked first.
    @Test func mirrorIsWrittenBeforeTheCommit() throws {
        let mirror = RecordingMirror(linked: ["t"])
        let persistence = MemoryPersistence()
        let service = TableService(
            catalog: Catalog(), persistence: persistence, mirror: mirror, announce: { _, _ in })
        try service.createTable("t")
        try service.createTable("u")
        mirror.linked = ["t"]
        let commitsBefore = persistence.committed.count
        try service.insertRow("t", section: 0, row: -1, text: "one")
        #expect(mirror.written.map(\.0) == ["t"])
        #expect(mirror.written.last?.1.sections.first?.rows == [DocumentRow(text: "one")])
        #expect(persistence.committed.count == commitsBefore + 1)
        // An unlinked table is not written.
        try service.insertRow("u", section: 0, row: -1, text: "x")
        #expect(mirror.written.count == 1)
        // A file that cannot be written: nothing is committed, nothing changes.
        mirror.failure = CliptabError(.storageFailure, "disk full")
        #expect(throws: CliptabError.self) { try service.insertRow("t", section: 0, row: -1, text: "two") }
        #expect(try service.rows(of: "t", section: 0, offset: 0, limit: 10).map(\.text) == ["one"])
        #expect(persistence.committed.count == commitsBefore + 2)
        mirror.failure = nil
        // A refused change (the file does not parse) writes nothing and commits nothing.
        mirror.refusal = CliptabError(.linkedFileInvalid, "t.yaml: line 1, column 1: bad")
        #expect(throws: CliptabError(.linkedFileInvalid, "t.yaml: line 1, column 1: bad")) {
            try service.insertRow("t", section: 0, row: -1, text: "three")
        }
        #expect(mirror.written.count == 1 && persistence.committed.count == commitsBefore + 2)
        mirror.refusal = nil
        try service.renameTable("t", to: "v")
        #expect(mirror.checks.last == "t renamed to v")
        try service.dropTable("v")
        #expect(mirror.checks.last == "v dropped")
    }
}

/// A mirror that records what it is asked, and refuses or fails when told to.
private final class RecordingMirror: TableMirror {
    var linked: Set<String>
    var written: [(String, TableDocument)] = []
    var checks: [String] = []
    var refusal: CliptabError?
    var failure: CliptabError?

    init(linked: Set<String>) { self.linked = linked }

    func isMirrored(_ table: String) -> Bool { linked.contains(table) }

    func checkChange(to table: String, renamedTo: String?, dropped: Bool) throws {
        checks.append(renamedTo.map { "\(table) renamed to \($0)" } ?? (dropped ? "\(table) dropped" : table))
        if let renamedTo { linked = [renamedTo] }
        if let refusal { throw refusal }
    }

    func write(_ table: String, document: TableDocument, isSecret: Bool) throws {
        if let failure { throw failure }
        written.append((table, document))
    }
}
