// SPDX-License-Identifier: MIT
import CliptabConfig
import CliptabCore
import CliptabStore

/// Reads the configuration file and puts it in force: once at the start, then again on
/// every reload.
///
/// A file with any problem changes nothing. A good file is applied whole, except for the
/// keys that need a restart (`data_dir`, `durability`): a reload that finds them changed
/// keeps the running values and reports each one.
public final class Configurator {
    /// The file read, or nil when there is no place for one (neither `XDG_CONFIG_HOME` nor
    /// `HOME` is set).
    public let path: String?
    /// True when the path was given with `--config`: then the file must exist.
    public let isExplicit: Bool
    /// The command-line settings, which win over the file.
    public let overrides: ConfigurationOverrides
    /// The settings in force.
    public private(set) var current = DaemonConfiguration()
    /// True when the last reload found problems in the file and applied nothing.
    public private(set) var lastReloadRefused = false
    private let environment: (String) -> String?

    /// Makes a configurator for the file at `path`.
    ///
    /// `environment` looks up variables (`HOME` for `~/` in `data_dir`).
    public init(
        path: String?, isExplicit: Bool, overrides: ConfigurationOverrides = ConfigurationOverrides(),
        environment: @escaping (String) -> String? = ConfigLocation.variable
    ) {
        self.path = path
        self.isExplicit = isExplicit
        self.overrides = overrides
        self.environment = environment
    }

    /// Reads and checks the file, with the command-line settings put in; applies nothing.
    ///
    /// A missing file is the defaults, unless it was given with `--config`.
    public func read() -> ParsedConfiguration {
        var parsed = ParsedConfiguration(ConfigFile(parsing: [], path: path ?? "cliptab.conf"))
        if let path {
            do {
                let bytes = try ConfigFile.read(path: path)
                parsed = ParsedConfiguration(ConfigFile(parsing: bytes, path: path), environment: environment)
            } catch {
                if !error.isMissing || isExplicit {
                    parsed.problems = [
                        ConfigProblem(file: path, line: 0, message: "cannot read it: \(error)")
                    ]
                }
            }
        }
        parsed.configuration = overrides.applied(to: parsed.configuration)
        return parsed
    }

    /// Reads the configuration for the start of the daemon and makes it the one in force.
    public func start() throws(ConfigurationError) -> DaemonConfiguration {
        let parsed = read()
        guard parsed.problems.isEmpty else { throw ConfigurationError(problems: parsed.problems) }
        current = parsed.configuration
        return current
    }

    /// The data directory that `configuration` names, the default one when it names none.
    public func dataDirectory(of configuration: DaemonConfiguration) throws -> String {
        try configuration.dataDirectory ?? SQLiteStore.defaultDirectory()
    }

    /// Creates the tables that `configuration` names and are missing, then gives each the
    /// settings the file sets; returns what failed (the store refused a change).
    public static func applyTables(_ configuration: DaemonConfiguration, to tables: TableService) -> [String]
    {
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

    /// Puts the settings that a running daemon can change into the tables, the clipboard
    /// settings and the log.
    public static func applySettings(
        _ configuration: DaemonConfiguration, to tables: TableService, clipboard: inout ClipboardSettings
    ) {
        tables.limits = configuration.limits
        clipboard.ownPrimary = configuration.ownPrimary
        clipboard.secretClearMilliseconds = configuration.secretClearMilliseconds
        clipboard.readTimeoutMilliseconds = configuration.pasteTimeoutMilliseconds
        clipboard.focusPaste = configuration.focusPaste
        clipboard.sequenceIdleMilliseconds = configuration.sequenceIdleMilliseconds
        Log.threshold = configuration.logLevel
    }

    /// Reads the file again and applies it.
    ///
    /// Returns the problems: with any in the file, nothing changes; otherwise everything
    /// is applied but a changed `data_dir` or `durability`, which are reported as
    /// waiting for the next start. Empty means everything in the file is in force.
    public func reload(tables: TableService, clipboard: inout ClipboardSettings) -> [String] {
        let parsed = read()
        lastReloadRefused = !parsed.problems.isEmpty
        guard parsed.problems.isEmpty else { return parsed.problems.map(\.description) }
        var next = parsed.configuration
        var problems: [String] = []
        let file = path ?? "cliptab.conf"
        let newDirectory = try? dataDirectory(of: next)
        let oldDirectory = try? dataDirectory(of: current)
        if newDirectory != oldDirectory {
            let problem = ConfigProblem(
                file: file, line: parsed.lines["store.data_dir"] ?? 0,
                message:
                    "data_dir changes take effect at the next start; the store stays in \(oldDirectory ?? "its directory") until then"
            )
            problems.append(problem.description)
        }
        if next.durability != current.durability {
            let problem = ConfigProblem(
                file: file, line: parsed.lines["store.durability"] ?? 0,
                message:
                    "durability changes take effect at the next start; it stays \(current.durability.rawValue) until then"
            )
            problems.append(problem.description)
        }
        if next.tablesDirectory != current.tablesDirectory {
            let problem = ConfigProblem(
                file: file, line: parsed.lines["tables.dir"] ?? 0,
                message:
                    "dir changes take effect at the next start; linked tables stay in \(current.tablesDirectory ?? "the default folder") until then"
            )
            problems.append(problem.description)
        }
        next.dataDirectory = current.dataDirectory
        next.tablesDirectory = current.tablesDirectory
        next.durability = current.durability
        problems += Self.applyTables(next, to: tables)
        Self.applySettings(next, to: tables, clipboard: &clipboard)
        current = next
        return problems
    }
}
