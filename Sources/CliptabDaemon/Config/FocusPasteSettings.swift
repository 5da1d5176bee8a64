// SPDX-License-Identifier: MIT
import CliptabCore
import KeyChords
import Quoting

/// How `PasteToFocus` pastes: the `[paste_to_focus]` section of `cliptab.conf`.
public struct FocusPasteSettings: Equatable, Sendable {
    /// A window class that gets its own paste chord (a terminal).
    public struct Terminal: Equatable, Sendable {
        /// The `WM_CLASS` instance or class name, compared without regard to case.
        public var name: String
        /// The chord for it, or nil for `terminalKey`.
        public var key: KeyChord?

        /// Makes an entry.
        public init(name: String, key: KeyChord? = nil) {
            self.name = name
            self.key = key
        }
    }

    /// The wait for the target to fetch the text when the call says 0, in milliseconds.
    public var timeoutMilliseconds = 1000
    /// How long the target must be quiet after it fetched the text before the clipboard
    /// is restored, in milliseconds: some programs ask again (for another type, or twice).
    public var settleMilliseconds = 50
    /// Put the clipboard's previous text back after the paste.
    public var restore = true
    /// The chord for most windows.
    public var key = Self.chord("ctrl+v")
    /// The chord for the windows in `terminals` that name none of their own.
    public var terminalKey = Self.chord("ctrl+shift+v")
    /// The window classes that get `terminalKey` (or their own chord).
    public var terminals = Self.defaultTerminals
    /// Press the modifiers the person still holds again after the chord.
    public var repressModifiers = false
    /// How long the RemoteDesktop portal's session stays open without a paste, in
    /// milliseconds, where the portal keeps the consent (version 2 or later).
    public var portalIdleMilliseconds = 30_000

    /// The defaults.
    public init() {}

    /// The terminal emulators whose paste chord is not Ctrl+V, by their `WM_CLASS` names
    /// and, on Wayland, their app ids.
    ///
    /// The app ids: `foot`, `kitty`, `Alacritty`, `org.wezfurlong.wezterm` (the same as their
    /// X11 class), GNOME Console (`org.gnome.Console`, `kgx` before GNOME 42), GNOME Terminal
    /// (`org.gnome.Terminal`), Konsole (`org.kde.konsole`). Ctrl+Shift+V: st (Debian's stterm too), kitty, Alacritty, the VTE terminals
    /// (GNOME Terminal, Xfce Terminal, Tilix, Terminator, LXTerminal, Sakura), Konsole,
    /// WezTerm, foot, Terminology. xterm binds no clipboard paste at all by default; the
    /// usual translation added for it is Ctrl+Shift+V, and its Ctrl+V would type a
    /// literal-next. rxvt-unicode pastes CLIPBOARD with Ctrl+Alt+V.
    public static let defaultTerminals: [Terminal] =
        [
            "st-256color", "st", "stterm", "stterm-256color", "kitty", "Alacritty", "Gnome-terminal",
            "gnome-terminal-server", "konsole", "Xfce4-terminal", "Tilix", "Terminator", "Lxterminal",
            "Sakura", "org.wezfurlong.wezterm", "foot", "footclient", "terminology", "XTerm",
            "org.gnome.Console", "kgx", "org.gnome.Terminal", "org.kde.konsole",
        ].map { Terminal(name: $0) } + [Terminal(name: "URxvt", key: chord("ctrl+alt+v"))]

    /// The chord for a window with `WM_CLASS` (`instanceName`, `className`).
    public func chord(instanceName: String, className: String) -> KeyChord {
        chord(names: [instanceName, className])
    }

    /// The chord for a window known by `names` (`WM_CLASS` instance and class, an app id).
    public func chord(names: [String]) -> KeyChord {
        let names = names.map { $0.lowercased() }
        guard let terminal = terminals.first(where: { names.contains($0.name.lowercased()) }) else {
            return key
        }
        return terminal.key ?? terminalKey
    }

    /// One line naming the settings, for the debug log.
    public var summary: String {
        "paste_to_focus: timeout_ms=\(timeoutMilliseconds) settle_ms=\(settleMilliseconds) restore=\(restore)"
            + " key=\(key) terminal_key=\(terminalKey) terminals=\(terminals.count)"
            + " repress_modifiers=\(repressModifiers) portal_idle_ms=\(portalIdleMilliseconds)"
    }

    private static func chord(_ text: String) -> KeyChord {
        // The defaults are literals known to parse.
        (try? KeyChord(parsing: text)) ?? (try! KeyChord(parsing: "ctrl+v"))
    }

    /// The value of `key` and `terminal_key`: a chord such as `ctrl+shift+v`.
    static func parseChord(_ value: String) throws(ConfigValueError) -> KeyChord {
        do {
            return try KeyChord(parsing: value)
        } catch {
            throw ConfigValueError(error.description)
        }
    }

    /// Class names split on blanks and commas, each optionally `NAME:CHORD`.
    static func parseTerminals(_ value: String) throws(ConfigValueError) -> [Terminal] {
        var list: [Terminal] = []
        for word in value.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," }) {
            let parts = word.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0])
            guard !name.isEmpty else {
                throw ConfigValueError(
                    "expected WM_CLASS names, each with an optional :CHORD, found \(Quotation.quoted(word))")
            }
            list.append(Terminal(name: name, key: parts.count > 1 ? try parseChord(String(parts[1])) : nil))
        }
        return list
    }
}
