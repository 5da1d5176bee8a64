// SPDX-License-Identifier: MIT
import CliptabCore
import CliptabDaemon
import TestSupport
import Testing

/// The daemon's use cases in this process, over in-memory persistence and a recording
/// clipboard: what each of copy, cut, paste, secret tables and reload does to the tables and
/// to the clipboard, with no process, bus or display.
@Suite(.serialized)
struct UseCaseTests {
    /// A copy puts the cell's text on the clipboard, changes no table, and announces the
    /// copied row; a section copy joins its rows and names no row.
    @Test func copy() throws {
        let daemon = try InProcessDaemon()
        let ids = try daemon.makeTable("t", ["one", "two"])
        let before = try daemon.tables.revision(of: "t")
        let eventsBefore = daemon.events.count
        #expect(try daemon.service.copy("t", section: 0, row: 1) == "two")
        #expect(daemon.clipboard.copies == [.init(text: "two", isSecret: false)])
        #expect(daemon.clipboardChanges == [.init(owned: true, rowID: ids[1])])
        #expect(daemon.service.copiedRowID == ids[1] && daemon.clipboard.isOwned)
        #expect(try daemon.tables.revision(of: "t") == before && daemon.events.count == eventsBefore)

        #expect(try daemon.service.copySection("t", section: 0, separator: ", ") == "one, two")
        #expect(daemon.clipboard.copies.last == .init(text: "one, two", isSecret: false))
        #expect(daemon.clipboardChanges.last == .init(owned: true, rowID: 0))

        // A table without `copy` refuses, and the clipboard is not touched.
        try daemon.tables.setAllowedActions("t", ["paste"])
        #expect(throws: CliptabError.self) { try daemon.service.copy("t", section: 0, row: 0) }
        #expect(daemon.clipboard.copies.count == 2)

        // Giving the clipboard up announces it; with nothing held, nothing is announced.
        daemon.service.clearClipboard()
        #expect(daemon.clipboard.clears == 1 && !daemon.clipboard.isOwned)
        #expect(daemon.clipboardChanges.last == .init(owned: false, rowID: 0))
        let announced = daemon.clipboardChanges.count
        daemon.service.clearClipboard()
        #expect(daemon.clipboardChanges.count == announced)
    }

    /// A cut whose clipboard cannot be taken deletes nothing.
    ///
    /// The row, the revision and the events stay as they were. Taken, the cut copies and
    /// then deletes.
    @Test func cutDeletesNothingWithoutTheClipboard() throws {
        let daemon = try InProcessDaemon()
        let ids = try daemon.makeTable("t", ["keep", "cut me"])
        let revision = try daemon.tables.revision(of: "t")
        let events = daemon.events
        daemon.clipboard.refusal = "no X display"
        do {
            _ = try daemon.service.cut("t", section: 0, row: 1)
            Issue.record("a cut without a clipboard succeeded")
        } catch let error as CliptabError {
            #expect(error.code == .clipboardUnavailable && error.message == "no X display")
        }
        #expect(try daemon.texts("t") == ["keep", "cut me"])
        #expect(try daemon.tables.revision(of: "t") == revision && daemon.events == events)
        #expect(daemon.clipboard.copies == [] && daemon.clipboardChanges == [])

        daemon.clipboard.refusal = nil
        #expect(try daemon.service.cut("t", section: 0, row: 1) == "cut me")
        #expect(try daemon.texts("t") == ["keep"])
        #expect(daemon.clipboard.copies == [.init(text: "cut me", isSecret: false)])
        #expect(daemon.clipboardChanges == [.init(owned: true, rowID: ids[1])])
        let after = try daemon.tables.revision(of: "t")
        #expect(after > revision)
        #expect(
            daemon.events.last
                == .rowsDeleted(table: "t", revision: after, paths: [IndexPath(section: 0, row: 1)]))

        // A table that allows copy but not cut refuses before touching the clipboard.
        try daemon.tables.setAllowedActions("t", ["copy"])
        #expect(throws: CliptabError.self) { try daemon.service.cut("t", section: 0, row: 0) }
        #expect(daemon.clipboard.copies.count == 1)
        #expect(try daemon.texts("t") == ["keep"])
    }

    /// A paste inserts another program's text where asked; a failed read inserts nothing,
    /// and a table without `paste` is refused before the clipboard is read.
    @Test func paste() throws {
        let daemon = try InProcessDaemon()
        try daemon.makeTable("t", ["a", "b"])
        daemon.clipboard.takenByAnotherProgram(offering: "from elsewhere")
        let pasted = try daemon.paste("t", row: 1)
        #expect((try pasted?.get()) == "from elsewhere")
        #expect(try daemon.texts("t") == ["a", "from elsewhere", "b"])

        // An empty clipboard: the completion gets ClipboardEmpty and the table is unchanged.
        daemon.clipboard.offered = .failure(CliptabError(.clipboardEmpty, "nothing is on the clipboard"))
        let empty = try daemon.paste("t", row: 0)
        #expect((empty.map { result in (try? result.get()) == nil }) == true)
        #expect(try daemon.texts("t") == ["a", "from elsewhere", "b"])

        // Not permitted: refused at once, without a read.
        let reads = daemon.clipboard.reads
        try daemon.tables.setAllowedActions("t", ["copy"])
        #expect(throws: CliptabError.self) { _ = try daemon.paste("t", row: 0) }
        #expect(daemon.clipboard.reads == reads)

        // PerformAction "paste" takes the same way.
        try daemon.tables.setAllowedActions("t", ["paste"])
        daemon.clipboard.takenByAnotherProgram(offering: "by action")
        var performed: Result<String, Error>?
        try daemon.service.perform("t", action: "paste", section: 0, row: -1) { performed = $0.map(\.text) }
        #expect((try performed?.get()) == "by action")
        #expect(try daemon.texts("t").last == "by action")
    }

    /// A text its owner marked as a password (the password-manager hint) is refused by a
    /// table that is not secret, by Paste and PerformAction alike, and taken by a secret one;
    /// the table is checked as it is when the read completes.
    @Test func markedSecretTextGoesOnlyIntoSecretTables() throws {
        let daemon = try InProcessDaemon()
        try daemon.makeTable("t", ["a"])
        daemon.clipboard.takenByAnotherProgram(offering: "hunter2", markedSecret: true)
        let refused = try #require(try daemon.paste("t", row: -1))
        guard case .failure(let error as CliptabError) = refused, error.code == .notPermitted else {
            Issue.record("expected NotPermitted, got \(refused)")
            return
        }
        #expect(error.message.contains("marked secret by its owner"))
        #expect(error.message.contains("table \"t\" is not secret"))
        #expect(try daemon.texts("t") == ["a"])

        var performed: Result<String, Error>?
        try daemon.service.perform("t", action: "paste", section: 0, row: -1) { performed = $0.map(\.text) }
        #expect(throws: CliptabError.self) { try performed?.get() }
        #expect(try daemon.texts("t") == ["a"])

        try daemon.tables.setSecret("t", true)
        #expect((try daemon.paste("t", row: -1)?.get()) == "hunter2")
        #expect(try daemon.texts("t") == ["a", "hunter2"])
    }

    /// A secret table's copies (of a cell, a section, or by cut) are marked secret, and the
    /// file's `secret_clear_ms` is what the clipboard clears them after.
    @Test func secretTables() throws {
        let daemon = try InProcessDaemon(
            config: "[clipboard]\nsecret_clear_ms = 1234\n[table \"pw\"]\nsecret = true\n[table \"plain\"]\n")
        #expect(daemon.clipboard.settings.secretClearMilliseconds == 1234)
        #expect(
            try daemon.tables.record(of: "pw").isSecret && !(try daemon.tables.record(of: "plain").isSecret))
        try daemon.makeTable("pw", ["hunter2", "swordfish"])
        try daemon.makeTable("plain", ["hello"])
        _ = try daemon.service.copy("pw", section: 0, row: 0)
        _ = try daemon.service.copy("plain", section: 0, row: 0)
        _ = try daemon.service.copySection("pw", section: 0, separator: "\n")
        _ = try daemon.service.cut("pw", section: 0, row: 1)
        #expect(
            daemon.clipboard.copies == [
                .init(text: "hunter2", isSecret: true), .init(text: "hello", isSecret: false),
                .init(text: "hunter2\nswordfish", isSecret: true), .init(text: "swordfish", isSecret: true),
            ])
        // Made secret at run time, a table's next copy is secret too.
        try daemon.tables.setSecret("plain", true)
        _ = try daemon.service.copy("plain", section: 0, row: 0)
        #expect(daemon.clipboard.copies.last == .init(text: "hello", isSecret: true))
    }

    /// A reload (the path of both the Reload method and SIGHUP) applies a good file to the
    /// tables and the clipboard, and leaves everything as it was for a bad one.
    @Test func reload() throws {
        let daemon = try InProcessDaemon(config: "[clipboard]\npaste_timeout_ms = 100\n")
        #expect(daemon.clipboard.settings.readTimeoutMilliseconds == 100)
        try daemon.write(
            "[clipboard]\npaste_timeout_ms = 300\nselections = clipboard primary\n[limits]\nrows_per_table = 5\n"
                + "[table \"new\"]\nactions = copy\nsecret = yes\n")
        #expect(daemon.services.reload() == [])
        #expect(
            daemon.clipboard.settings.readTimeoutMilliseconds == 300 && daemon.clipboard.settings.ownPrimary)
        #expect(daemon.tables.limits.maxRowsPerTable == 5)
        let record = try daemon.tables.record(of: "new")
        #expect(record.allowedActions == ActionSet(.copy) && record.isSecret)
        #expect(daemon.events.contains(.tableAdded("new")))

        // A bad file changes nothing and names its problem.
        try daemon.write("[clipboard]\npaste_timeout_ms = 60001\n[limits]\nrows_per_table = 9\n")
        #expect(
            daemon.services.reload() == [
                "\(daemon.configPath):2: paste_timeout_ms: expected a whole number of milliseconds from 1 to 60000, found 60001"
            ])
        #expect(
            daemon.clipboard.settings.readTimeoutMilliseconds == 300
                && daemon.tables.limits.maxRowsPerTable == 5)
    }

    /// Templates show the clock given at the start in the zone that the given environment's
    /// `TZ` names, read again at a reload: nothing comes from the process's own zone or time.
    @Test func zoneAndClockArePassedIn() throws {
        let directory = try TemporaryDirectory(prefix: "cliptab-inprocess")
        let configurator = Configurator(path: directory.appending("cliptab.conf"), isExplicit: false)
        var zone = "Europe/Berlin"
        let services = try DaemonServices(
            configurator: configurator, configuration: try configurator.start(),
            tables: TableService(catalog: Catalog(), persistence: MemoryPersistence(), announce: { _, _ in }),
            environment: { $0 == "TZ" ? zone : nil }, clock: { 1_700_000_000 }
        ) {
            ClipboardPolicy(
                backend: RecordingBackend(), injector: nil, settings: $0, announcer: ChangeRecorder()
            ) {
                0
            }
        }
        let tables = services.service.tables
        try tables.createTable("t")
        try tables.setTemplates("t", true)
        try tables.insertRows("t", section: 0, row: 0, texts: ["{datetime:%F %H:%M}"])
        func expanded() throws -> String? {
            var text: String?
            try services.service.expandCell("t", section: 0, row: 0, inputs: [:]) { text = try? $0.get() }
            return text
        }
        // 1700000000 is 2023-11-14 22:13:20 UTC.
        #expect(try expanded() == "2023-11-14 23:13")
        zone = "UTC"
        #expect(services.reload() == [])
        #expect(try expanded() == "2023-11-14 22:13")
        Log.threshold = .info
    }

    /// A table of the file that the service cannot set up stops the start.
    @Test func unusableTableStopsTheStart() throws {
        let directory = try TemporaryDirectory(prefix: "cliptab-inprocess")
        let path = directory.appending("cliptab.conf")
        try writeFile(path, "[limits]\nrows_per_table = 1\n[table \"t\"]\n")
        let configurator = Configurator(path: path, isExplicit: true)
        let configuration = try configurator.start()
        let persistence = MemoryPersistence()
        persistence.failNextCommit = CliptabError(.storageFailure, "the disk is full")
        let tables = TableService(catalog: Catalog(), persistence: persistence, announce: { _, _ in })
        #expect(throws: StartFailure.self) {
            _ = try DaemonServices(
                configurator: configurator, configuration: configuration, tables: tables,
                environment: { _ in nil }
            ) {
                ClipboardPolicy(
                    backend: RecordingBackend(), injector: nil, settings: $0, announcer: ChangeRecorder()
                ) { 0 }
            }
        }
        Log.threshold = .info
    }
}
