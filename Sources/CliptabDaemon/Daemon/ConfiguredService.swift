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
    /// The use cases; their `Reload` method is `reload()`.
    public let service: ClipboardService

    /// Puts `configuration` (what `configurator.start()` returned) in force over `tables`,
    /// then makes the clipboard with the settings it names, and the service over both.
    ///
    /// Throws the tables of the file that the store refused to set up.
    ///
    /// `keys` is where the key service keeps the bindings' states for the bus;
    /// `keysChanged` gets the bindings of `[keys]` after each reload that applied the file.
    /// `links` are the tables linked to files, whose problems `Reload` reports too.
    public init(
        configurator: Configurator, configuration: DaemonConfiguration, tables: TableService,
        keys: BoundKeys = BoundKeys(), keysChanged: @escaping ([KeyBinding]) -> Void = { _ in },
        links: LinkedTables? = nil, makeClipboard: (ClipboardSettings) -> ClipboardPolicy
    ) throws(StartFailure) {
        self.configurator = configurator
        var settings = ClipboardSettings()
        Configurator.applySettings(configuration, to: tables, clipboard: &settings)
        let failures = Configurator.applyTables(configuration, to: tables)
        guard failures.isEmpty else { throw StartFailure(lines: failures) }
        let clipboard = makeClipboard(settings)
        service = ClipboardService(
            tables: tables, clipboard: clipboard, keys: keys, links: links,
            reload: {
                let problems = Self.reload(configurator, tables: tables, clipboard: clipboard)
                // A file with problems changed nothing, its keys included.
                if !configurator.lastReloadRefused { keysChanged(configurator.current.keys) }
                return problems
            })
    }

    /// Reads the file again and applies it; logs the outcome once and returns the problems
    /// (empty: everything in the file is in force).
    ///
    /// The one reload of the daemon: the `Reload` method and SIGHUP both come here.
    public func reload() -> [String] {
        service.reload()
    }

    /// The reload of `configurator`'s file into `tables` and `clipboard`, logged once.
    private static func reload(_ configurator: Configurator, tables: TableService, clipboard: ClipboardPolicy)
        -> [String]
    {
        let problems = configurator.reload(tables: tables, clipboard: &clipboard.settings)
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
