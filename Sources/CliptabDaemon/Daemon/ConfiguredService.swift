// SPDX-License-Identifier: MIT
import CliptabCore

/// The daemon's use cases under its configuration file: the file's settings and tables
/// applied at the start, and again on every reload.
///
/// It holds no process resource (no lock, bus or display of its own), so a test builds it
/// over in-memory persistence and a fake clipboard and reloads a temporary file.
public final class ConfiguredService {
    /// Reads the file and keeps the configuration in force.
    public let configurator: Configurator
    /// The use cases; its `Reload` method calls `reload()`.
    public let service: DaemonService

    /// Puts `configuration` (what `configurator.start()` returned) in force over `tables`,
    /// then makes the clipboard with the settings it names, and the service over both.
    ///
    /// Throws the tables of the file that the store refused to set up.
    public init(
        configurator: Configurator, configuration: DaemonConfiguration, tables: TableService,
        makeClipboard: (ClipboardSettings) -> ClipboardPolicy
    ) throws(StartFailure) {
        self.configurator = configurator
        var settings = ClipboardSettings()
        Configurator.applySettings(configuration, to: tables, clipboard: &settings)
        let failures = Configurator.applyTables(configuration, to: tables)
        guard failures.isEmpty else { throw StartFailure(lines: failures) }
        service = DaemonService(tables: tables, clipboard: makeClipboard(settings))
        service.reload = { [weak self] in self?.reload() ?? [] }
    }

    /// Reads the file again and applies it; logs the outcome once and returns the problems
    /// (empty: everything in the file is in force).
    ///
    /// The one reload of the daemon: the `Reload` method and SIGHUP both come here.
    public func reload() -> [String] {
        var problems = configurator.reload(tables: service.tables, clipboard: &service.clipboard.settings)
        // The zone of {date} and {time}, read again: a changed /etc/localtime takes effect here.
        let zone = LocalZone.load(environment: ConfigLocation.variable)
        service.zone = zone.zone
        if let problem = zone.problem { problems.append(problem) }
        let file = configurator.path ?? "(no configuration file)"
        if problems.isEmpty {
            let details = Log.threshold >= .debug ? ": \(configurator.current.summary)" : ""
            Log.line("reloaded \(file)\(details)")
        } else {
            Log.line("reload of \(file): \(problems.joined(separator: "; "))", level: .warning)
        }
        return problems
    }
}
