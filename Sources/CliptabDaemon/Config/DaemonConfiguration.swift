// SPDX-License-Identifier: MIT
import CliptabCore
import CliptabStore
import Glibc

/// What a `[table "NAME"]` section asks for: the table exists, with these settings.
///
/// A key left out leaves that setting of the table as it is.
public struct TableSettings: Equatable, Sendable {
    /// The table's name.
    public var name: String
    /// The allowed actions (`actions =`), or nil to leave them.
    public var actions: ActionSet?
    /// Whether the table is secret (`secret =`), or nil to leave it.
    public var isSecret: Bool?

    /// Makes the settings of one table.
    public init(name: String, actions: ActionSet? = nil, isSecret: Bool? = nil) {
        self.name = name
        self.actions = actions
        self.isSecret = isSecret
    }
}

/// The daemon's settings, as read from `cliptab.conf` and the command line.
public struct DaemonConfiguration: Equatable, Sendable {
    /// Also own PRIMARY on copy (`selections = clipboard primary`).
    public var ownPrimary = false
    /// How long a secret table's copy stays on the clipboard, in milliseconds.
    public var secretClearMilliseconds = ClipboardSettings().secretClearMilliseconds
    /// The longest wait for another program's clipboard text, in milliseconds.
    public var pasteTimeoutMilliseconds = ClipboardSettings().readTimeoutMilliseconds
    /// The store's directory, or nil for the default (`$XDG_DATA_HOME/cliptab`).
    public var dataDirectory: String?
    /// How hard each commit presses the change to disk.
    public var durability = Durability.full
    /// The limits on cells, rows and sections.
    public var limits = Limits.defaults
    /// The least important log lines written.
    public var logLevel = Log.Level.info
    /// The tables to create and configure, in file order.
    public var tables: [TableSettings] = []
    /// How `PasteToFocus` pastes (`[paste_to_focus]`).
    public var focusPaste = FocusPasteSettings()

    /// The defaults: what an empty or missing file gives.
    public init() {}

    /// The sections and their keys, in the order the sample file and the manual list them.
    public static let keys: [(section: String, keys: [String])] = [
        ("clipboard", ["selections", "secret_clear_ms", "paste_timeout_ms"]),
        ("store", ["data_dir", "durability"]),
        ("limits", ["cell_bytes", "rows_per_table", "sections_per_table"]),
        ("log", ["level"]),
        ("paste_to_focus", FocusPasteSettings.keys),
        ("table", ["actions", "secret"]),
    ]

    /// The keys whose changes need a restart: a reload reports them and keeps the old value.
    public static let restartKeys = ["data_dir", "durability"]

    /// The ranges of the numeric keys, with the unit named in messages.
    static let ranges: [String: (range: ClosedRange<Int>, unit: String)] = [
        // A day: a secret that stays longer is not cleared, it is kept.
        "secret_clear_ms": (1...86_400_000, "milliseconds"),
        // Clients give up on a D-Bus call after 25 s by default; a minute is plenty.
        "paste_timeout_ms": (1...60_000, "milliseconds"),
        // The largest D-Bus message is 128 MiB: a bigger cell could never be read back.
        "cell_bytes": (1...134_217_728, "bytes"),
        // Indexes on the bus are int32.
        "rows_per_table": (1...2_147_483_647, "rows"),
        "sections_per_table": (1...2_147_483_647, "sections"),
    ]

    /// One line naming every setting, for the debug log (table names, never cell text).
    public var summary: String {
        var parts = [
            "selections=\(ownPrimary ? "clipboard,primary" : "clipboard")",
            "secret_clear_ms=\(secretClearMilliseconds)",
            "paste_timeout_ms=\(pasteTimeoutMilliseconds)",
            "data_dir=\(dataDirectory ?? "(default)")",
            "durability=\(durability.rawValue)",
            "cell_bytes=\(limits.maxCellBytes)",
            "rows_per_table=\(limits.maxRowsPerTable)",
            "sections_per_table=\(limits.maxSectionsPerTable)",
            "level=\(logLevel.rawValue)",
        ]
        parts.append(focusPaste.summary)
        parts.append("tables=\(tables.isEmpty ? "(none)" : tables.map(\.name).joined(separator: ","))")
        return parts.joined(separator: " ")
    }
}

/// A configuration read from a file: the settings, what was wrong, and the line of each key.
public struct ParsedConfiguration: Equatable, Sendable {
    /// The settings; defaults where the file was silent or wrong.
    public var configuration: DaemonConfiguration
    /// Everything wrong, in file order; empty for a good file.
    public var problems: [ConfigProblem]
    /// The line of each `section.key` set in the file (tables excluded).
    public var lines: [String: Int]

    /// Reads the settings from a parsed file.
    ///
    /// `environment` looks up variables (`HOME` for `~/` in `data_dir`).
    public init(_ file: ConfigFile, environment: (String) -> String? = ConfigLocation.variable) {
        var configuration = DaemonConfiguration()
        var problems = file.problems
        var lines: [String: Int] = [:]
        var tables: [TableSettings] = []
        func problem(_ line: Int, _ message: String) {
            problems.append(ConfigProblem(file: file.path, line: line, message: message))
        }
        let known = Dictionary(uniqueKeysWithValues: DaemonConfiguration.keys.map { ($0.section, $0.keys) })
        let sectionList = DaemonConfiguration.keys.map {
            $0.section == "table" ? "[table \"NAME\"]" : "[\($0.section)]"
        }.joined(separator: ", ")
        for header in file.sections {
            if known[header.name] == nil {
                problem(header.line, "unknown section [\(header.name)] (known: \(sectionList))")
            } else if header.name == "table" {
                if let name = header.subsection {
                    do {
                        try TableName.validate(name)
                        if !tables.contains(where: { $0.name == name }) {
                            tables.append(TableSettings(name: name))
                        }
                    } catch {
                        problem(header.line, "[table \"\(name)\"]: \(error.message)")
                    }
                } else {
                    problem(header.line, "a table section names its table: [table \"NAME\"]")
                }
            } else if let subsection = header.subsection {
                problem(
                    header.line,
                    "[\(header.name)] takes no name; write [\(header.name)], not [\(header.name) \"\(subsection)\"]"
                )
            }
        }
        for entry in file.entries {
            // Unknown or broken sections were reported once, above.
            guard let keys = known[entry.section] else { continue }
            if entry.section == "table" {
                guard let name = entry.subsection, let index = tables.firstIndex(where: { $0.name == name })
                else { continue }
                guard keys.contains(entry.key) else {
                    problem(
                        entry.line,
                        "unknown key \"\(entry.key)\" in [table \"\(name)\"] (known: \(keys.joined(separator: ", ")))"
                    )
                    continue
                }
                do {
                    switch entry.key {
                    case "actions": tables[index].actions = try Self.actions(entry.value)
                    default: tables[index].isSecret = try Self.boolean(entry.value)
                    }
                } catch {
                    problem(entry.line, "\(entry.key): \(error.message)")
                }
                continue
            }
            guard keys.contains(entry.key) else {
                problem(
                    entry.line,
                    "unknown key \"\(entry.key)\" in [\(entry.section)] (known: \(keys.joined(separator: ", ")))"
                )
                continue
            }
            lines["\(entry.section).\(entry.key)"] = entry.line
            do {
                if entry.section == "paste_to_focus" {
                    try configuration.focusPaste.set(entry.key, entry.value)
                    continue
                }
                try Self.set(entry.key, entry.value, in: &configuration, environment: environment)
            } catch {
                problem(entry.line, "\(entry.key): \(error.message)")
            }
        }
        configuration.tables = tables
        self.configuration = configuration
        self.problems = problems.sorted { $0.line < $1.line }
        self.lines = lines
    }

    /// A value that does not fit its key.
    struct ValueError: Error {
        let message: String
        init(_ message: String) { self.message = message }
    }

    private static func set(
        _ key: String, _ value: String, in configuration: inout DaemonConfiguration,
        environment: (String) -> String?
    ) throws(ValueError) {
        switch key {
        case "selections":
            configuration.ownPrimary = try selections(value)
        case "secret_clear_ms":
            configuration.secretClearMilliseconds = try number(value, key)
        case "paste_timeout_ms":
            configuration.pasteTimeoutMilliseconds = try number(value, key)
        case "data_dir":
            configuration.dataDirectory = try directory(value, environment: environment)
        case "durability":
            guard let durability = Durability(rawValue: value) else {
                throw ValueError("expected full or normal, found \"\(value)\"")
            }
            configuration.durability = durability
        case "cell_bytes":
            configuration.limits.maxCellBytes = try number(value, key)
        case "rows_per_table":
            configuration.limits.maxRowsPerTable = try number(value, key)
        case "sections_per_table":
            configuration.limits.maxSectionsPerTable = try number(value, key)
        default:
            guard let level = Log.Level(rawValue: value) else {
                let levels = Log.Level.allCases.map(\.rawValue).joined(separator: ", ")
                throw ValueError("expected one of \(levels), found \"\(value)\"")
            }
            configuration.logLevel = level
        }
    }

    /// The words of a list, split on blanks and commas.
    private static func words(_ value: String) -> [String] {
        value.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," }).map(String.init)
    }

    private static func selections(_ value: String) throws(ValueError) -> Bool {
        let expected = "expected \"clipboard\" or \"clipboard primary\""
        let list = words(value)
        for word in list where word != "clipboard" && word != "primary" {
            throw ValueError("\(expected), found the unknown selection \"\(word)\"")
        }
        guard list.contains("clipboard") else {
            throw ValueError("\(expected): a copy always goes to the clipboard")
        }
        return list.contains("primary")
    }

    private static func number(_ value: String, _ key: String) throws(ValueError) -> Int {
        let (range, unit) = DaemonConfiguration.ranges[key] ?? (1...Int.max, "")
        let expected =
            "expected a whole number of \(unit) from \(range.lowerBound) to \(range.upperBound)"
        guard !value.isEmpty, value.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            throw ValueError("\(expected), found \"\(value)\"")
        }
        guard let number = Int(value), range.contains(number) else {
            throw ValueError("\(expected), found \(value)")
        }
        return number
    }

    private static func directory(_ value: String, environment: (String) -> String?) throws(ValueError)
        -> String?
    {
        if value.isEmpty { return nil }
        var path = value
        if value == "~" || value.hasPrefix("~/") {
            guard let home = environment("HOME"), home.hasPrefix("/") else {
                throw ValueError("\"~\" needs HOME to be set; write the full path")
            }
            path = home + value.dropFirst()
        }
        guard path.hasPrefix("/") else {
            throw ValueError(
                "expected an absolute path (or one starting with \"~/\"), or nothing for the default, found \"\(value)\""
            )
        }
        return path
    }

    static func boolean(_ value: String) throws(ValueError) -> Bool {
        switch value.lowercased() {
        case "true", "yes", "on", "1": return true
        case "false", "no", "off", "0": return false
        default: throw ValueError("expected true or false, found \"\(value)\"")
        }
    }

    static func actions(_ value: String) throws(ValueError) -> ActionSet {
        let valid = TableAction.allCases.map(\.rawValue).joined(separator: " ")
        let expected = "expected action names from \"\(valid)\", or all, or none"
        let list = words(value)
        if list == ["all"] { return .all }
        if list == ["none"] { return [] }
        guard !list.isEmpty else { throw ValueError("\(expected), found nothing") }
        var actions: [TableAction] = []
        for word in list {
            guard let action = TableAction(rawValue: word) else {
                throw ValueError("\(expected), found \"\(word)\"")
            }
            actions.append(action)
        }
        return ActionSet(actions)
    }
}

/// The settings given on the command line; each one given wins over the file, at the start
/// and on every reload.
public struct ConfigurationOverrides: Equatable, Sendable {
    /// `--data-dir`.
    public var dataDirectory: String?
    /// `--durability`.
    public var durability: Durability?
    /// `--primary`.
    public var ownPrimary: Bool?
    /// `--secret-clear-ms`.
    public var secretClearMilliseconds: Int?
    /// `--paste-timeout-ms`.
    public var pasteTimeoutMilliseconds: Int?

    /// No overrides.
    public init() {}

    /// `configuration` with every override given put in.
    public func applied(to configuration: DaemonConfiguration) -> DaemonConfiguration {
        var result = configuration
        if let dataDirectory { result.dataDirectory = dataDirectory }
        if let durability { result.durability = durability }
        if let ownPrimary { result.ownPrimary = ownPrimary }
        if let secretClearMilliseconds { result.secretClearMilliseconds = secretClearMilliseconds }
        if let pasteTimeoutMilliseconds { result.pasteTimeoutMilliseconds = pasteTimeoutMilliseconds }
        return result
    }
}

/// Where the configuration file is looked for.
public enum ConfigLocation {
    /// `$XDG_CONFIG_HOME/cliptab/cliptab.conf`, or `~/.config/cliptab/cliptab.conf` when
    /// `XDG_CONFIG_HOME` is unset or not absolute; nil when neither it nor `HOME` is usable.
    public static func defaultPath(environment: (String) -> String? = variable) -> String? {
        if let config = environment("XDG_CONFIG_HOME"), config.hasPrefix("/") {
            return config + "/cliptab/cliptab.conf"
        }
        if let home = environment("HOME"), home.hasPrefix("/") {
            return home + "/.config/cliptab/cliptab.conf"
        }
        return nil
    }

    /// The process environment's value of `name`.
    public static func variable(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
