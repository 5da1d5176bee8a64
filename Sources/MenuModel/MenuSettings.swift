// SPDX-License-Identifier: MIT

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
    public var background = "#20242b"
    /// The text of rows.
    public var foreground = "#dde1e6"
    /// Section headers, footers, row names and the prompt.
    public var title = "#7fb0e0"
    /// The background of the chosen row.
    public var selectedBackground = "#3b6ea8"
    /// The text of the chosen row.
    public var selectedForeground = "#ffffff"
    /// Enter on a row: `paste` into the window focused before, or `copy`.
    public var enter = "paste"

    /// The defaults.
    public init() {}

    /// The keys of `[menu]`, in the order the sample file lists them.
    public static let keys = [
        "font", "rows", "width", "background", "foreground", "title", "selected_background",
        "selected_foreground", "enter",
    ]

    /// The settings of `text` (a whole config file), and one message per value it could not use.
    public static func parse(_ text: String, file: String) -> (MenuSettings, [String]) {
        var settings = MenuSettings()
        var problems: [String] = []
        var inMenu = false
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingBlanks()
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") {
                inMenu = line == "[menu]"
                continue
            }
            guard inMenu, let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmingBlanks()
            var value = line[line.index(after: equals)...].trimmingBlanks()
            if value.count >= 2 && value.hasPrefix("\"") && value.hasSuffix("\"") {
                value = String(value.dropFirst().dropLast())
            }
            if let problem = settings.set(key, value) {
                problems.append("\(file):\(number + 1): \(problem)")
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
        case "background": background = value
        case "foreground": foreground = value
        case "title": title = value
        case "selected_background": selectedBackground = value
        case "selected_foreground": selectedForeground = value
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

extension StringProtocol {
    /// The text without blanks (spaces, tabs, CR) at either end.
    fileprivate func trimmingBlanks() -> String {
        var scalars = Substring(self).unicodeScalars[...]
        while let first = scalars.first, first == " " || first == "\t" || first == "\r" {
            scalars.removeFirst()
        }
        while let last = scalars.last, last == " " || last == "\t" || last == "\r" { scalars.removeLast() }
        return String(String.UnicodeScalarView(scalars))
    }
}
