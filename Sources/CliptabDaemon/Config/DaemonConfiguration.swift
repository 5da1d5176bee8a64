// SPDX-License-Identifier: MIT
import CliptabCore
import CliptabStore

/// The daemon's settings, as read from `cliptab.conf` and the command line.
public struct DaemonConfiguration: Equatable, Sendable {
    /// The clipboard backend to use (chosen at the start).
    public var backend = ClipboardBackendChoice.auto
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
    /// `[cli] notify`, which only `cliptab` acts on: kept so that the file is checked whole.
    public var cliNotify = "never"
    /// The tables to create and configure, in file order.
    public var tables: [TableSettings] = []
    /// How `PasteToFocus` pastes (`[paste_to_focus]`).
    public var focusPaste = FocusPasteSettings()
    /// How the desktop's search offers rows (`[search]`).
    public var search = SearchSettings()
    /// How long a sequence left alone runs, in milliseconds (`[sequence] idle_ms`).
    public var sequenceIdleMilliseconds = ClipboardSettings().sequenceIdleMilliseconds
    /// The keys cliptabd binds itself (`[keys]`), in file order.
    public var keys: [KeyBinding] = []
    /// The folder of linked tables' files (`[tables] dir`), or nil for the default
    /// (`$XDG_CONFIG_HOME/cliptab/tables`).
    public var tablesDirectory: String?

    /// The defaults: what an empty or missing file gives.
    public init() {}

    /// The sections and their keys, in the order the sample file and the manual list them:
    /// the daemon-wide keys of `ConfigKey`, then `[menu]`, then `[table "NAME"]` with those
    /// of `TableKey`.
    public static let keys: [(section: String, keys: [String])] = {
        var sections: [(section: String, keys: [String])] = []
        for key in ConfigKey.allCases {
            if sections.last?.section == key.section {
                sections[sections.count - 1].keys.append(key.rawValue)
            } else {
                sections.append((key.section, [key.rawValue]))
            }
        }
        // `[keys]` takes chords as keys, not names: it lists none.
        return sections + [("menu", menuKeys), ("keys", []), ("table", TableKey.allCases.map(\.rawValue))]
    }()

    /// The keys of `[menu]`: cliptab-menu reads and judges them; the daemon only checks that
    /// a key exists, so that one file serves both.
    public static let menuKeys = [
        "font", "rows", "width", "background", "foreground", "title", "selected_background",
        "selected_foreground", "enter",
    ]

    /// The keys whose changes need a restart: a reload reports them and keeps the old value.
    package static let restartKeys = ConfigKey.allCases.filter(\.needsRestart).map(\.rawValue)

    /// One line naming every setting, for the debug log (table names, never cell text).
    public var summary: String {
        var parts = [
            "backend=\(backend.rawValue)",
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
        parts.append(search.summary)
        parts.append("idle_ms=\(sequenceIdleMilliseconds)")
        parts.append(
            "keys=\(keys.isEmpty ? "(none)" : keys.map { "\($0.keys):\($0.id)" }.joined(separator: ","))")
        parts.append("dir=\(tablesDirectory ?? "(default)")")
        parts.append("tables=\(tables.isEmpty ? "(none)" : tables.map(\.name).joined(separator: ","))")
        return parts.joined(separator: " ")
    }
}
