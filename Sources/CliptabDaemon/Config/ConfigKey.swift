// SPDX-License-Identifier: MIT
import CliptabCore
import CliptabStore
import Quoting

/// A key of the daemon-wide sections of `cliptab.conf`, in the order the sample file and
/// the manual list them.
///
/// Every key has a case of its own and every switch over the keys is exhaustive, so a key
/// added without its section, range or validator does not compile. The command line's
/// options use the same validators (`--paste-timeout-ms` is checked as `paste_timeout_ms`).
public enum ConfigKey: String, CaseIterable, Sendable {
    /// `[clipboard] backend`: auto, wayland or x11 (at the start only).
    case backend
    /// `[clipboard] selections`: clipboard, or clipboard primary.
    case selections
    /// `[clipboard] secret_clear_ms`.
    case secretClearMilliseconds = "secret_clear_ms"
    /// `[clipboard] paste_timeout_ms`.
    case pasteTimeoutMilliseconds = "paste_timeout_ms"
    /// `[store] data_dir`.
    case dataDirectory = "data_dir"
    /// `[store] durability`.
    case durability
    /// `[limits] cell_bytes`.
    case cellBytes = "cell_bytes"
    /// `[limits] rows_per_table`.
    case rowsPerTable = "rows_per_table"
    /// `[limits] sections_per_table`.
    case sectionsPerTable = "sections_per_table"
    /// `[log] level`.
    case level
    /// `[paste_to_focus] timeout_ms`: the default wait for the focused window's fetch.
    case focusPasteTimeoutMilliseconds = "timeout_ms"
    /// `[paste_to_focus] settle_ms`: the quiet time after the fetch before the restore.
    case settleMilliseconds = "settle_ms"
    /// `[paste_to_focus] restore`.
    case restore
    /// `[paste_to_focus] key`: the paste chord.
    case key
    /// `[paste_to_focus] terminal_key`: the paste chord of terminals.
    case terminalKey = "terminal_key"
    /// `[paste_to_focus] terminals`: the window classes that get `terminal_key`.
    case terminals
    /// `[paste_to_focus] repress_modifiers`.
    case repressModifiers = "repress_modifiers"
    /// `[paste_to_focus] portal_idle_ms`: how long the RemoteDesktop portal's session stays
    /// open without a paste, where the portal keeps the consent.
    case portalIdleMilliseconds = "portal_idle_ms"
    /// `[cli] notify`: read by `cliptab` (never, failures or all); the daemon only checks it.
    case notify
    /// `[search] activate`: what activating a desktop search result does (paste or copy).
    case activate
    /// `[search] max_results`: the most results one desktop search returns.
    case maxResults = "max_results"
    /// `[sequence] idle_ms`: how long a sequence left alone runs before it ends.
    case sequenceIdleMilliseconds = "idle_ms"
    /// `[tables] dir`: the folder of linked tables' files (at the start only).
    case tablesDirectory = "dir"

    /// The section the key belongs in.
    public var section: String {
        switch self {
        case .backend, .selections, .secretClearMilliseconds, .pasteTimeoutMilliseconds: "clipboard"
        case .dataDirectory, .durability: "store"
        case .cellBytes, .rowsPerTable, .sectionsPerTable: "limits"
        case .level: "log"
        case .focusPasteTimeoutMilliseconds, .settleMilliseconds, .restore, .key, .terminalKey, .terminals,
            .repressModifiers, .portalIdleMilliseconds:
            "paste_to_focus"
        case .notify: "cli"
        case .activate, .maxResults: "search"
        case .sequenceIdleMilliseconds: "sequence"
        case .tablesDirectory: "tables"
        }
    }

    /// True for the keys whose changes need a restart: a reload reports them and keeps the
    /// running value.
    public var needsRestart: Bool {
        switch self {
        case .dataDirectory, .durability, .backend, .tablesDirectory: true
        case .selections, .secretClearMilliseconds, .pasteTimeoutMilliseconds, .cellBytes, .rowsPerTable,
            .sectionsPerTable, .level, .focusPasteTimeoutMilliseconds, .settleMilliseconds, .restore, .key,
            .terminalKey, .terminals, .repressModifiers, .portalIdleMilliseconds, .notify, .activate,
            .maxResults, .sequenceIdleMilliseconds:
            false
        }
    }

    /// The range of a numeric key, with the unit named in messages; nil for the others.
    public var range: (range: ClosedRange<Int>, unit: String)? {
        switch self {
        // A day: a secret that stays longer is not cleared, it is kept.
        case .secretClearMilliseconds: (1...86_400_000, "milliseconds")
        // Clients give up on a D-Bus call after 25 s by default; a minute is plenty.
        case .pasteTimeoutMilliseconds: (1...60_000, "milliseconds")
        // The largest D-Bus message is 128 MiB: a bigger cell could never be read back.
        case .cellBytes: (1...134_217_728, "bytes")
        // Indexes on the bus are int32.
        case .rowsPerTable: (1...2_147_483_647, "rows")
        case .sectionsPerTable: (1...2_147_483_647, "sections")
        // As paste_timeout_ms: the call must end well before the client gives up.
        case .focusPasteTimeoutMilliseconds: (1...60_000, "milliseconds")
        // Programs ask again within milliseconds; seconds would only delay the restore.
        case .settleMilliseconds: (1...5_000, "milliseconds")
        // A day, as secret_clear_ms: a session idle longer is as good as kept.
        case .portalIdleMilliseconds: (1...86_400_000, "milliseconds")
        // GNOME Shell shows a handful per provider, KRunner a screenful: a thousand is plenty.
        case .maxResults: (1...1_000, "results")
        // A day, as secret_clear_ms: a sequence forgotten for longer is not one in use.
        case .sequenceIdleMilliseconds: (1...86_400_000, "milliseconds")
        case .backend, .selections, .dataDirectory, .durability, .level, .restore, .key, .terminalKey,
            .terminals, .repressModifiers, .notify, .activate, .tablesDirectory:
            nil
        }
    }

    /// Checks `value` with the key's validator and puts it into `configuration`.
    ///
    /// `environment` looks up variables (`HOME` for `~/` in `data_dir`).
    public func apply(
        _ value: String, to configuration: inout DaemonConfiguration, environment: (String) -> String?
    ) throws(ConfigValueError) {
        switch self {
        case .backend: configuration.backend = try Self.backend(value)
        case .selections: configuration.ownPrimary = try Self.selections(value)
        case .secretClearMilliseconds: configuration.secretClearMilliseconds = try number(value)
        case .pasteTimeoutMilliseconds: configuration.pasteTimeoutMilliseconds = try number(value)
        case .dataDirectory: configuration.dataDirectory = try Self.directory(value, environment: environment)
        case .durability: configuration.durability = try Self.durability(value)
        case .cellBytes: configuration.limits.maxCellBytes = try number(value)
        case .rowsPerTable: configuration.limits.maxRowsPerTable = try number(value)
        case .sectionsPerTable: configuration.limits.maxSectionsPerTable = try number(value)
        case .level: configuration.logLevel = try Self.level(value)
        case .focusPasteTimeoutMilliseconds: configuration.focusPaste.timeoutMilliseconds = try number(value)
        case .settleMilliseconds: configuration.focusPaste.settleMilliseconds = try number(value)
        case .restore: configuration.focusPaste.restore = try TableKey.boolean(value)
        case .key: configuration.focusPaste.key = try FocusPasteSettings.parseChord(value)
        case .terminalKey: configuration.focusPaste.terminalKey = try FocusPasteSettings.parseChord(value)
        case .terminals: configuration.focusPaste.terminals = try FocusPasteSettings.parseTerminals(value)
        case .repressModifiers: configuration.focusPaste.repressModifiers = try TableKey.boolean(value)
        case .portalIdleMilliseconds: configuration.focusPaste.portalIdleMilliseconds = try number(value)
        case .notify: configuration.cliNotify = try Self.notify(value)
        case .activate: configuration.search.activate = try SearchSettings.activation(value)
        case .maxResults: configuration.search.maxResults = try number(value)
        case .sequenceIdleMilliseconds: configuration.sequenceIdleMilliseconds = try number(value)
        case .tablesDirectory:
            configuration.tablesDirectory = try Self.directory(value, environment: environment)
        }
    }

    // MARK: - Validators

    /// The value of a numeric key: digits only, within the key's range.
    ///
    /// Asking a key without a range is a programming error.
    public func number(_ value: String) throws(ConfigValueError) -> Int {
        guard let (range, unit) = range else { preconditionFailure("\(rawValue) is not a numeric key") }
        let expected = "expected a whole number of \(unit) from \(range.lowerBound) to \(range.upperBound)"
        guard !value.isEmpty, value.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            throw ConfigValueError("\(expected), found \(Quotation.quoted(value))")
        }
        guard let number = Int(value), range.contains(number) else {
            throw ConfigValueError("\(expected), found \(value)")
        }
        return number
    }

    /// The value of `backend`.
    public static func backend(_ value: String) throws(ConfigValueError) -> ClipboardBackendChoice {
        guard let choice = ClipboardBackendChoice(rawValue: value) else {
            throw ConfigValueError("expected \"auto\", \"wayland\" or \"x11\", found \"\(value)\"")
        }
        return choice
    }

    /// The value of `selections`: true when PRIMARY is taken too.
    public static func selections(_ value: String) throws(ConfigValueError) -> Bool {
        let expected = "expected \"clipboard\" or \"clipboard primary\""
        let list = words(value)
        for word in list where word != "clipboard" && word != "primary" {
            throw ConfigValueError("\(expected), found the unknown selection \(Quotation.quoted(word))")
        }
        guard list.contains("clipboard") else {
            throw ConfigValueError("\(expected): a copy always goes to the clipboard")
        }
        return list.contains("primary")
    }

    /// The value of `data_dir`: an absolute path (`~/` expanded), or nil for the default
    /// when empty.
    public static func directory(_ value: String, environment: (String) -> String?) throws(ConfigValueError)
        -> String?
    {
        if value.isEmpty { return nil }
        var path = value
        if value == "~" || value.hasPrefix("~/") {
            guard let home = environment("HOME"), home.hasPrefix("/") else {
                throw ConfigValueError("\"~\" needs HOME to be set; write the full path")
            }
            path = home + value.dropFirst()
        }
        guard path.hasPrefix("/") else {
            throw ConfigValueError(
                "expected an absolute path (or one starting with \"~/\"), or nothing for the default, found \(Quotation.quoted(value))"
            )
        }
        return path
    }

    /// The value of `durability`: full or normal.
    public static func durability(_ value: String) throws(ConfigValueError) -> Durability {
        guard let durability = Durability(rawValue: value) else {
            throw ConfigValueError("expected full or normal, found \(Quotation.quoted(value))")
        }
        return durability
    }

    /// The value of `level`: one of the log levels.
    public static func level(_ value: String) throws(ConfigValueError) -> Log.Level {
        guard let level = Log.Level(rawValue: value) else {
            let levels = Log.Level.allCases.map(\.rawValue).joined(separator: ", ")
            throw ConfigValueError("expected one of \(levels), found \(Quotation.quoted(value))")
        }
        return level
    }

    /// The value of `notify`: never, failures or all (the words `cliptab --notify=` takes).
    public static func notify(_ value: String) throws(ConfigValueError) -> String {
        guard ["never", "failures", "all"].contains(value) else {
            throw ConfigValueError("expected never, failures or all, found \(Quotation.quoted(value))")
        }
        return value
    }

    /// The words of a list, split on blanks and commas.
    static func words(_ value: String) -> [String] {
        value.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," }).map(String.init)
    }
}
