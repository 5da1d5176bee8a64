// SPDX-License-Identifier: MIT
import CliptabConfig
import CliptabCore
import CliptabStore

/// The one reader of the configuration file: once at the start, then again on every reload.
///
/// A file with any problem changes nothing. A good file is taken whole, except for the keys
/// that need a restart (`data_dir`, `durability`, `[tables] dir`): a reload that finds them
/// changed keeps the running values and reports each one. `DaemonServices` applies what it
/// returns.
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

    /// Reads the file again for a reload and makes it the configuration in force.
    ///
    /// Returns nil and the problems when the file has any: nothing is in force then but what
    /// was. Otherwise returns the configuration to apply, with a changed `data_dir`,
    /// `durability` or `[tables] dir` kept at its running value and reported (with its line)
    /// as waiting for the next start.
    public func reread() -> (configuration: DaemonConfiguration?, problems: [String]) {
        let parsed = read()
        guard parsed.problems.isEmpty else { return (nil, parsed.problems.map(\.description)) }
        var next = parsed.configuration
        let oldDirectory = try? dataDirectory(of: current)
        let waiting: [(key: String, changed: Bool, message: String)] = [
            (
                "store.data_dir", (try? dataDirectory(of: next)) != oldDirectory,
                "data_dir changes take effect at the next start; the store stays in \(oldDirectory ?? "its directory") until then"
            ),
            (
                "store.durability", next.durability != current.durability,
                "durability changes take effect at the next start; it stays \(current.durability.rawValue) until then"
            ),
            (
                "tables.dir", next.tablesDirectory != current.tablesDirectory,
                "dir changes take effect at the next start; linked tables stay in \(current.tablesDirectory ?? "the default folder") until then"
            ),
        ]
        let problems = waiting.filter(\.changed).map {
            ConfigProblem(file: path ?? "cliptab.conf", line: parsed.lines[$0.key] ?? 0, message: $0.message)
                .description
        }
        next.dataDirectory = current.dataDirectory
        next.tablesDirectory = current.tablesDirectory
        next.durability = current.durability
        current = next
        return (next, problems)
    }
}
