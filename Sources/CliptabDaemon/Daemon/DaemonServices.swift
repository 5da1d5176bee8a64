// SPDX-License-Identifier: MIT
import CliptabCore

/// The daemon's services under its configuration file, and the one reload that puts the
/// file in force in each of them: SIGHUP and the `Reload` method both call `reload()`.
///
/// It holds no process resource (no lock, bus or display of its own), so a test builds it
/// over in-memory persistence and a recording clipboard and reloads a temporary file.
public final class DaemonServices {
    /// Reads the file and keeps the configuration in force.
    public let configurator: Configurator
    /// The clipboard's use cases over the tables, which the bus's method rows call.
    public let service: ClipboardService
    /// The desktops' search over `service`.
    public let search: DesktopSearch
    /// Runs the keys of `[keys]` (nil: none, as in the tests of the use cases).
    public let keys: KeyService?
    /// Looks up `TZ`, which names the zone of `{date}` and `{time}`.
    private let environment: (String) -> String?

    /// Puts `configuration` (what `configurator.start()` returned) in force over `tables`,
    /// then makes the clipboard with its settings (`makeClipboard`), the service over both,
    /// the desktop search (opening the menu with `openMenu`) and the keys (`makeKeys`, given
    /// the service and `board`, where it keeps the bindings' states for the bus).
    ///
    /// `links` are the tables linked to files, whose problems a reload reports too; the zone
    /// of templates is the one `environment`'s `TZ` names, and `clock` their UTC seconds.
    /// Throws the tables of the file that the store refused to set up.
    public init(
        configurator: Configurator, configuration: DaemonConfiguration, tables: TableService,
        links: LinkedTables? = nil, board: BoundKeys = BoundKeys(),
        environment: @escaping (String) -> String?, clock: @escaping () -> Int64 = LocalZone.now,
        openMenu: @escaping ([String], String?) throws -> Void = { _, _ in },
        makeClipboard: (ClipboardSettings) -> ClipboardPolicy,
        makeKeys: (ClipboardService, BoundKeys) -> KeyService? = { _, _ in nil }
    ) throws(StartFailure) {
        self.configurator = configurator
        self.environment = environment
        let zone = LocalZone.load(environment: environment)
        if let problem = zone.problem { Log.line(problem, level: .warning) }
        service = ClipboardService(
            tables: tables, clipboard: makeClipboard(Self.clipboardSettings(configuration)), keys: board,
            links: links, zone: zone.zone, clock: clock)
        search = DesktopSearch(service: service, settings: configuration.search, openMenu: openMenu)
        keys = makeKeys(service, board)
        let failures = apply(configuration)
        guard failures.isEmpty else { throw StartFailure(lines: failures) }
    }

    /// Reads the file again and puts it in force in every service; logs the outcome once
    /// and returns the problems (empty: everything in the file is in force).
    ///
    /// A file with problems changes nothing; the linked files' problems and a zone that
    /// cannot be read are reported with the file's. The zone is read again on every reload.
    public func reload() -> [String] {
        let (configuration, found) = configurator.reread()
        var problems = found + (configuration.map(apply) ?? [])
        problems += service.links?.problems ?? []
        let zone = LocalZone.load(environment: environment)
        service.zone = zone.zone
        problems += zone.problem.map { [$0] } ?? []
        let file = configurator.path ?? "(no configuration file)"
        if problems.isEmpty {
            let details = Log.threshold >= .debug ? ": \(configurator.current.summary)" : ""
            Log.line("reloaded \(file)\(details)")
        } else {
            Log.line("reload of \(file): \(problems.joined(separator: "; "))", level: .warning)
        }
        return problems
    }

    /// Puts `configuration` in force in each service: the log's level, the tables' limits
    /// and settings, the clipboard's settings, the search's and the keys; returns what the
    /// store refused.
    private func apply(_ configuration: DaemonConfiguration) -> [String] {
        Log.threshold = configuration.logLevel
        let tables = service.tables
        tables.limits = configuration.limits
        service.clipboard.settings = Self.clipboardSettings(configuration, over: service.clipboard.settings)
        search.settings = configuration.search
        for line in keys?.apply(configuration.keys) ?? [] { Log.line(line, level: .warning) }
        var failures: [String] = []
        for settings in configuration.tables {
            do {
                if (try? tables.record(of: settings.name)) == nil { try tables.createTable(settings.name) }
                let record = try tables.record(of: settings.name)
                if let actions = settings.actions, actions != record.allowedActions {
                    try tables.setAllowedActions(settings.name, actions.actions.map(\.rawValue))
                }
                if let secret = settings.isSecret, secret != record.isSecret {
                    try tables.setSecret(settings.name, secret)
                }
                if let templates = settings.isTemplates, templates != record.isTemplates {
                    try tables.setTemplates(settings.name, templates)
                }
            } catch {
                failures.append("table \"\(settings.name)\" could not be set up: \(error)")
            }
        }
        return failures
    }

    /// `settings` with what `configuration` sets of the clipboard.
    private static func clipboardSettings(
        _ configuration: DaemonConfiguration, over settings: ClipboardSettings = ClipboardSettings()
    ) -> ClipboardSettings {
        var settings = settings
        settings.ownPrimary = configuration.ownPrimary
        settings.secretClearMilliseconds = configuration.secretClearMilliseconds
        settings.readTimeoutMilliseconds = configuration.pasteTimeoutMilliseconds
        settings.focusPaste = configuration.focusPaste
        settings.sequenceIdleMilliseconds = configuration.sequenceIdleMilliseconds
        return settings
    }
}
