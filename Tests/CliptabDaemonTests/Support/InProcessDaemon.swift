// SPDX-License-Identifier: MIT
import CliptabCore
import CliptabDaemon
import TestSupport

/// The daemon's use cases built in this process, as `Daemon` builds them.
///
/// No store, bus or display: a configuration file in a temporary directory, in-memory
/// persistence, and a recording clipboard. What the bus would announce is recorded.
final class InProcessDaemon {
    /// Holds the configuration file.
    let directory: TemporaryDirectory
    /// The services under the configuration, as the daemon makes them.
    let services: DaemonServices
    /// The clipboard backend the service's policy owns selections with.
    let clipboard: RecordingBackend
    /// The keys the paste sends.
    let keys: RecordingInjector
    /// The clock of the policy's timers.
    let clock: VirtualClock
    /// What the bus would announce.
    let announced = ChangeRecorder()
    /// Every committed change, in order.
    var events: [TableEvent] { announced.events }
    /// Every change of the hold on the clipboard announced: (owned, row id).
    var clipboardChanges: [ChangeRecorder.ClipboardChange] { announced.clipboardChanges }

    /// The use cases.
    var service: ClipboardService { services.service }
    /// The tables.
    var tables: TableService { services.service.tables }
    /// The configuration file's path.
    var configPath: String { directory.appending("cliptab.conf") }

    /// Writes `config` (when given) and starts the use cases on it.
    init(config: String? = nil) throws {
        directory = try TemporaryDirectory(prefix: "cliptab-inprocess")
        if let config { try writeFile(directory.appending("cliptab.conf"), config) }
        let configurator = Configurator(
            path: directory.appending("cliptab.conf"), isExplicit: false,
            environment: { $0 == "HOME" ? "/home/u" : nil })
        let backend = RecordingBackend()
        let keys = RecordingInjector()
        let clock = VirtualClock()
        services = try DaemonServices(
            configurator: configurator, configuration: try configurator.start(),
            tables: TableService(
                catalog: Catalog(), persistence: MemoryPersistence(), announce: announced.announce(_:catalog:)
            ),
            environment: { $0 == "TZ" ? "UTC" : nil }
        ) { [announced] settings in
            ClipboardPolicy(backend: backend, injector: keys, settings: settings, announcer: announced) {
                clock.now
            }
        }
        clipboard = backend
        self.keys = keys
        self.clock = clock
    }

    /// Rewrites the configuration file.
    func write(_ config: String) throws { try writeFile(configPath, config) }

    /// Makes `table` with one section of `rows`; returns the rows' ids.
    @discardableResult
    func makeTable(_ table: String, _ rows: [String]) throws -> [UInt64] {
        if (try? tables.record(of: table)) == nil { try tables.createTable(table) }
        let ids = try tables.insertRows(table, section: 0, row: 0, texts: rows)
        // The tests index these ids: a short answer fails the test, it does not crash the run.
        guard ids.count == rows.count else {
            throw FixtureError("\(rows.count) rows inserted into \(table), \(ids.count) ids answered")
        }
        return ids
    }

    /// The texts of section 0 of `table`.
    func texts(_ table: String) throws -> [String] {
        try tables.rows(of: table, section: 0, offset: 0, limit: 1000).map(\.text)
    }

    /// Moves the virtual clock on by `milliseconds` and lets the policy handle what is due.
    func advance(_ milliseconds: UInt64) {
        clock.advance(milliseconds)
        service.clipboard.process(now: clock.now)
    }

    /// Lets the policy handle what the backend reported, without moving the clock.
    func turn() { service.clipboard.process(now: clock.now) }

    /// Pastes into `table` at (section, row) and returns what the completion got.
    func paste(_ table: String, section: Int32 = 0, row: Int32) throws -> Result<String, Error>? {
        var outcome: Result<String, Error>?
        try service.paste(table, section: section, row: row) { outcome = $0.map(\.text) }
        return outcome
    }

    deinit { Log.threshold = .info }
}
