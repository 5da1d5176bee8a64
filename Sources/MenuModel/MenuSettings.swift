// SPDX-License-Identifier: MIT
import CliptabConfig

/// The `[menu]` section of `cliptab.conf`: what the popup looks like and what Enter does.
///
/// Only this section is read; the daemon checks the rest of the file.
public struct MenuSettings: Equatable, Sendable {
    /// The fontconfig name of the font (`Xft.dpi` scales point sizes).
    public var font = "monospace:size=11"
    /// The most lines of rows shown at once.
    public var rows = 15
    /// The window's width, in widths of the digit 0.
    public var width = 60
    /// The window's background.
    public var background = MenuColor(0x20242b)
    /// The text of rows.
    public var foreground = MenuColor(0xdde1e6)
    /// Section headers, footers, row names and the prompt.
    public var title = MenuColor(0x7fb0e0)
    /// The background of the chosen row.
    public var selectedBackground = MenuColor(0x3b6ea8)
    /// The text of the chosen row.
    public var selectedForeground = MenuColor(0xffffff)
    /// Enter on a row: `paste` into the window focused before, or `copy`.
    public var enter = "paste"

    /// The defaults.
    public init() {}

    /// The colour the settings give `ink`.
    public func color(of ink: MenuInk) -> MenuColor {
        switch ink {
        case .background: background
        case .foreground: foreground
        case .title: title
        case .selectedBackground: selectedBackground
        case .selectedForeground: selectedForeground
        }
    }

    /// The keys of `[menu]`, in the order the sample file lists them.
    public static let keys = [
        "font", "rows", "width", "background", "foreground", "title", "selected_background",
        "selected_foreground", "enter",
    ]

    /// The settings of `text` (a whole config file), and one message per value it could not use.
    public static func parse(_ text: String, file: String) -> (MenuSettings, [String]) {
        read(ConfigFile(parsing: Array(text.utf8), path: file))
    }

    /// The settings of the `[menu]` section of `file`, and one message per value it could
    /// not use.
    ///
    /// The file's syntax is the daemon's (`ConfigFile`): quoted values, comments after a
    /// header, CRLF line ends; lines it cannot parse are reported by `cliptabd --check-config`.
    public static func read(_ file: ConfigFile) -> (MenuSettings, [String]) {
        var settings = MenuSettings()
        var problems: [String] = []
        for entry in file.entries(in: "menu") where entry.subsection == nil {
            if let problem = settings.set(entry.key, entry.value) {
                problems.append("\(file.path):\(entry.line): \(problem)")
            }
        }
        return (settings, problems)
    }

    /// Sets `key` to `value`; returns what is wrong, if anything.
    private mutating func set(_ key: String, _ value: String) -> String? {
        switch key {
        case "font": font = value
        case "rows", "width":
            guard let number = Int(value), (1...200).contains(number) else {
                return "\(key) must be a whole number from 1 to 200, not \"\(value)\""
            }
            if key == "rows" { rows = number } else { width = number }
        case "background", "foreground", "title", "selected_background", "selected_foreground":
            // Read here, once, for both popups: neither asks its display what a name means.
            guard let color = MenuColor(parsing: value) else {
                return "\(key) must be #rrggbb or an X colour name (such as navy), not \"\(value)\""
            }
            switch key {
            case "background": background = color
            case "foreground": foreground = color
            case "title": title = color
            case "selected_background": selectedBackground = color
            default: selectedForeground = color
            }
        case "enter":
            guard value == "paste" || value == "copy" else {
                return "enter must be paste or copy, not \"\(value)\""
            }
            enter = value
        default:
            return "unknown key \"\(key)\" in [menu] (known: \(Self.keys.joined(separator: ", ")))"
        }
        return nil
    }
}
