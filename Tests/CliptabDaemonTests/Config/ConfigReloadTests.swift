// SPDX-License-Identifier: MIT
import CliptabCore
import CliptabDaemon
import DBus
import TestSupport
import Testing

/// The configurator and the services over an in-memory table service: what a start and a
/// reload apply.
@Suite(.serialized)
struct ConfigReloadTests {
    final class Setup {
        let directory: TemporaryDirectory
        let tables = TableService(catalog: Catalog(), persistence: MemoryPersistence(), announce: { _, _ in })
        let configurator: Configurator
        /// The services, once started.
        var services: DaemonServices?
        var path: String { directory.appending("cliptab.conf") }
        /// The clipboard's settings in force.
        var clipboard: ClipboardSettings { services?.service.clipboard.settings ?? ClipboardSettings() }

        init(_ text: String?, overrides: ConfigurationOverrides = ConfigurationOverrides()) throws {
            directory = try TemporaryDirectory(prefix: "cliptab-config")
            configurator = Configurator(
                path: directory.appending("cliptab.conf"), isExplicit: false, overrides: overrides,
                environment: { $0 == "HOME" ? "/home/u" : nil })
            if let text { try write(text) }
        }

        func write(_ text: String) throws { try writeFile(path, text) }

        /// Starts the services, the clipboard's chord typed by `injector` (nil: none).
        func start(injector: KeyInjector? = nil) throws -> DaemonConfiguration {
            let configuration = try configurator.start()
            services = try DaemonServices(
                configurator: configurator, configuration: configuration, tables: tables,
                environment: { $0 == "TZ" ? "UTC" : nil }
            ) {
                ClipboardPolicy(
                    backend: RecordingBackend(), injector: injector, settings: $0, announcer: ChangeRecorder()
                ) { 0 }
            }
            return configuration
        }

        func reload() -> [String] { services?.reload() ?? ["not started"] }

        deinit { Log.threshold = .info }
    }

    /// A missing file at the default place is the defaults; a missing `--config` file, or
    /// a directory, is a problem.
    @Test func missingFiles() throws {
        let setup = try Setup(nil)
        #expect(try setup.start() == DaemonConfiguration())
        let explicit = Configurator(path: setup.directory.appending("none.conf"), isExplicit: true)
        #expect(throws: ConfigurationError.self) { try explicit.start() }
        #expect(
            explicit.read().problems.map(\.description) == [
                "\(setup.directory.path)/none.conf: cannot read it: No such file or directory"
            ])
        let directory = Configurator(path: setup.directory.path, isExplicit: false)
        #expect(directory.read().problems.first?.message == "cannot read it: Is a directory")
    }

    /// At the start, a bad file is an error listing every problem.
    @Test func badFileAtStart() throws {
        let setup = try Setup("[limits]\ncell_bytes = x\n[log]\nlevel = loud\n")
        do {
            _ = try setup.configurator.start()
            Issue.record("a bad file started")
        } catch {
            #expect(error.problems.map(\.line) == [2, 4])
            #expect(error.description.hasPrefix("\(setup.path):2: cell_bytes: expected a whole number"))
        }
    }

    /// The tables of the file are created and configured; keys left out leave settings.
    @Test func tablesAtStart() throws {
        let setup = try Setup("[table \"pw\"]\nactions = copy\nsecret = true\n[table \"plain\"]\n")
        _ = try setup.start()
        #expect(setup.tables.listTables() == ["plain", "pw"])
        let pw = try setup.tables.record(of: "pw")
        #expect(pw.allowedActions == ActionSet(.copy) && pw.isSecret)
        let plain = try setup.tables.record(of: "plain")
        #expect(plain.allowedActions == .all && !plain.isSecret)
        // A later reload without the keys keeps what the tables have.
        try setup.tables.setSecret("plain", true)
        try setup.write("[table \"pw\"]\n[table \"plain\"]\n")
        #expect(setup.reload() == [])
        #expect(try setup.tables.record(of: "pw").allowedActions == ActionSet(.copy))
        #expect(try setup.tables.record(of: "plain").isSecret)
    }

    /// A good file is applied whole; a bad one changes nothing and says why.
    @Test func reloadAppliesAllOrNothing() throws {
        let setup = try Setup("[limits]\ncell_bytes = 8\n")
        _ = try setup.start()
        #expect(setup.tables.limits.maxCellBytes == 8)
        try setup.write(
            """
            [clipboard]
            selections = clipboard primary
            secret_clear_ms = 100
            paste_timeout_ms = 200
            [limits]
            cell_bytes = 9
            rows_per_table = 10
            sections_per_table = 11
            [log]
            level = warning
            [table "new"]
            actions = copy
            """)
        #expect(setup.reload() == [])
        #expect(setup.tables.limits == Limits(maxCellBytes: 9, maxRowsPerTable: 10, maxSectionsPerTable: 11))
        #expect(setup.clipboard.ownPrimary && setup.clipboard.secretClearMilliseconds == 100)
        #expect(setup.clipboard.readTimeoutMilliseconds == 200)
        #expect(Log.threshold == .warning)
        #expect(try setup.tables.record(of: "new").allowedActions == ActionSet(.copy))

        let before = (setup.tables.limits, setup.clipboard, setup.tables.listTables())
        try setup.write("[limits]\ncell_bytes = 1\n[table \"other\"]\n[clipboard]\nsecret_clear = 5\n")
        #expect(
            setup.reload() == [
                "\(setup.path):5: unknown key \"secret_clear\" in [clipboard] (known: backend, selections, secret_clear_ms, paste_timeout_ms)"
            ])
        #expect(setup.tables.limits == before.0 && setup.clipboard == before.1)
        #expect(setup.tables.listTables() == before.2)
        #expect(Log.threshold == .warning)
    }

    /// The RemoteDesktop portal's idle time is handed to it at the start and by a reload,
    /// through the clipboard's settings: it reads no configuration of its own.
    @Test func reloadHandsThePortalItsIdleTime() throws {
        let bus = try PrivateBus()
        let connection = try BusConnection.connect(address: bus.address)
        let portal = RemoteDesktopPortal(
            bus: connection, tokenFile: nil, registration: PortalHostRegistration(bus: connection),
            clock: { 0 }, idleMilliseconds: 0)
        let setup = try Setup("[paste_to_focus]\nportal_idle_ms = 600000\n")
        _ = try setup.start(injector: PasteRouter(routes: [PortalKeyInjector(portal: portal)]))
        #expect(portal.idleMilliseconds == 600_000)
        try setup.write("[paste_to_focus]\nportal_idle_ms = 1000\n")
        #expect(setup.reload() == [])
        #expect(portal.idleMilliseconds == 1000)
    }

    /// `data_dir` and `durability` wait for the next start: reported with their lines,
    /// kept as they run, and the rest of the file is applied.
    @Test func restartKeys() throws {
        let setup = try Setup("[store]\ndata_dir = /a\n")
        _ = try setup.start()
        try setup.write("[store]\ndata_dir = /b\ndurability = normal\n[limits]\nrows_per_table = 5\n")
        #expect(
            setup.reload() == [
                "\(setup.path):2: data_dir changes take effect at the next start; the store stays in /a until then",
                "\(setup.path):3: durability changes take effect at the next start; it stays full until then",
            ])
        #expect(setup.tables.limits.maxRowsPerTable == 5)
        #expect(setup.configurator.current.dataDirectory == "/a")
        #expect(setup.configurator.current.durability == .full)
        // Still not in force, so still reported; back to the running values, all good.
        #expect(setup.reload().count == 2)
        try setup.write("[store]\ndata_dir = /a\n")
        #expect(setup.reload() == [])
        // Removing the key is a change too, reported without a line.
        try setup.write("")
        #expect(setup.reload().first?.hasPrefix("\(setup.path): data_dir changes take effect") == true)
    }

    /// Command-line settings win over the file on every reload.
    @Test func overridesSurviveReloads() throws {
        var overrides = ConfigurationOverrides()
        overrides.secretClearMilliseconds = 777
        overrides.dataDirectory = "/cmd"
        let setup = try Setup(
            "[clipboard]\nsecret_clear_ms = 5\n[store]\ndata_dir = /file\n", overrides: overrides)
        let started = try setup.start()
        #expect(started.secretClearMilliseconds == 777 && started.dataDirectory == "/cmd")
        try setup.write("[clipboard]\nsecret_clear_ms = 6\n[store]\ndata_dir = /other\n")
        #expect(setup.reload() == [])
        #expect(setup.clipboard.secretClearMilliseconds == 777)
    }
}
