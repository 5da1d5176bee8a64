// SPDX-License-Identifier: MIT
import CliptabConfig
import CliptabContract

/// What `cliptabd` was asked to do by its command line.
///
/// Parsing is a pure function: it returns the options or the problem, and leaves printing
/// and exiting to the caller. An option that sets a configuration key is checked by that
/// key's validator (`ConfigKey`), so the command line accepts exactly what the file does.
public struct DaemonOptions: Equatable, Sendable {
    /// What to do.
    public enum Mode: Equatable, Sendable {
        /// Serve the tables on the bus until stopped.
        case serve
        /// Check the configuration and exit (`--check-config`).
        case checkConfig
        /// Print the usage text (`--help`).
        case help
        /// Print the version (`--version`).
        case version
        /// Print the interface's introspection XML (`--print-introspection`).
        case printIntrospection
    }

    /// What to do.
    public var mode = Mode.serve
    /// Take the bus name over from a running daemon (`--replace`).
    public var replace = false
    /// The configuration file given with `--config`, which must then exist.
    public var configPath: String?
    /// The settings given on the command line, which win over the file.
    public var overrides = ConfigurationOverrides()

    /// No options: serve, with the default configuration file.
    public init() {}

    /// The exit status of a command line that cannot be used.
    public static let usageExitStatus: Int32 = 2

    /// Reads the command line's arguments (without the program's name).
    ///
    /// `--help`, `--version` and `--print-introspection` end the parsing where they stand,
    /// as the first problem does. `environment` looks up `HOME` for `~/` in `--data-dir`.
    public static func parse(
        _ arguments: [String], environment: (String) -> String? = ConfigLocation.variable
    ) -> Result<DaemonOptions, UsageProblem> {
        var options = DaemonOptions()
        var index = 0
        func value(_ name: String) throws(UsageProblem) -> String {
            index += 1
            guard index < arguments.count else { throw UsageProblem("option \(name) needs a value") }
            return arguments[index]
        }
        /// The value of `name`, checked by the validator of `key`.
        func checked<T>(_ name: String, _ validate: (String) throws(ConfigValueError) -> T)
            throws(UsageProblem)
            -> T
        {
            let text = try value(name)
            do {
                return try validate(text)
            } catch {
                throw UsageProblem("\(name): \(error.message)")
            }
        }
        do throws(UsageProblem) {
            while index < arguments.count {
                switch arguments[index] {
                case "--help", "-h":
                    options.mode = .help
                    return .success(options)
                case "--version":
                    options.mode = .version
                    return .success(options)
                case "--print-introspection":
                    options.mode = .printIntrospection
                    return .success(options)
                case "--config":
                    options.configPath = try value("--config")
                case "--check-config":
                    options.mode = .checkConfig
                case "--replace":
                    options.replace = true
                case "--primary":
                    options.overrides.ownPrimary = true
                case "--clipboard-backend":
                    options.overrides.backend = try checked("--clipboard-backend", ConfigKey.backend)
                case "--secret-clear-ms":
                    options.overrides.secretClearMilliseconds = try checked(
                        "--secret-clear-ms", ConfigKey.secretClearMilliseconds.number)
                case "--paste-timeout-ms":
                    options.overrides.pasteTimeoutMilliseconds = try checked(
                        "--paste-timeout-ms", ConfigKey.pasteTimeoutMilliseconds.number)
                case "--data-dir":
                    options.overrides.dataDirectory = try checked("--data-dir") {
                        (text) throws(ConfigValueError) in
                        try ConfigKey.directory(text, environment: environment)
                    }
                case "--durability":
                    options.overrides.durability = try checked("--durability", ConfigKey.durability)
                case let unknown:
                    throw UsageProblem("unknown option \"\(unknown)\"", showsUsage: true)
                }
                index += 1
            }
        } catch {
            return .failure(error)
        }
        return .success(options)
    }

    /// The usage text of `--help`.
    public static let usage = """
        usage: cliptabd [--config FILE] [--replace] [--data-dir DIR] [--durability full|normal]
                        [--clipboard-backend auto|wayland|x11] [--primary]
                        [--secret-clear-ms N] [--paste-timeout-ms N]
               cliptabd [--config FILE] --check-config
               cliptabd --print-introspection | --version | --help

        Keeps named tables of text and serves them on the session bus as
        \(CliptabBus.name). Runs in the foreground; logs to standard error.
        Reads $XDG_CONFIG_HOME/cliptab/cliptab.conf (see cliptab.conf(5)); the options
        below win over it. SIGHUP or the Reload method re-reads it.

          --config FILE         read this configuration file instead (it must exist)
          --check-config        check the configuration, print its problems, and exit
          --replace             take over the bus name from a running cliptabd
          --data-dir DIR        where the store lives (default: $XDG_DATA_HOME/cliptab)
          --durability MODE     full (default: every change survives power loss) or normal
          --clipboard-backend B auto (default: Wayland's data-control where the session
                                has it, else X11), wayland or x11
          --primary             also take PRIMARY (middle-click paste) on copy
          --secret-clear-ms N   clear a secret table's copy after N ms (default 30000)
          --paste-timeout-ms N  wait at most N ms for another program's clipboard (default 2000)
          --print-introspection print the D-Bus interface XML and exit
          --version             print the version and exit
          --help                print this help and exit

        """
}
