// SPDX-License-Identifier: MIT

/// The lines of a compositor's own configuration that bind a key of `[keys]` to the
/// `cliptab` command doing the same (a process per press): for the compositors cliptabd
/// cannot bind through (`cliptab keys --print COMPOSITOR`).
public enum CompositorLines {
    /// The compositors lines are written for.
    public static let compositors = ["i3", "sway", "niri", "river", "labwc", "wayfire", "hyprland"]

    /// The line binding `binding` in `compositor`'s configuration, or nil for an unknown
    /// compositor.
    ///
    /// A paste or a fill is bound to the keys' release where the compositor can.
    public static func line(for binding: KeyBinding, compositor: String) -> String? {
        let modifiers = binding.modifiers
        let key = binding.keyName
        let release = binding.action.runsOnRelease
        let command = (["cliptab"] + binding.action.commandArguments).map(shellWord).joined(separator: " ")
        func names(_ name: (KeyBinding.Modifier) -> String) -> [String] { modifiers.map(name) }
        switch compositor {
        case "i3", "sway":
            let chord = (names(i3Modifier) + [key]).joined(separator: "+")
            return "bindsym \(release ? "--release " : "")\(chord) exec \(command)"
        case "niri":
            let chord = (names { $0 == .superKey ? "Mod" : $0.rawValue } + [key]).joined(separator: "+")
            let spawn = (["cliptab"] + binding.action.commandArguments).map { "\"\(escaped($0))\"" }
            return "\(chord) { spawn \(spawn.joined(separator: " ")); }"
        case "river":
            let chord =
                modifiers.isEmpty
                ? "None" : names { $0 == .ctrl ? "Control" : $0.rawValue }.joined(separator: "+")
            return
                "riverctl map\(release ? " -release" : "") normal \(chord) \(key) spawn \(shellWord(command))"
        case "labwc":
            let chord = (names(labwcModifier) + [key]).joined(separator: "-")
            return
                "<keybind key=\"\(xml(chord))\"><action name=\"Execute\" command=\"\(xml(command))\"/></keybind>"
        case "wayfire":
            let chord = (names { "<\($0.rawValue.lowercased())>" } + ["KEY_\(key.uppercased())"]).joined(
                separator: " ")
            return "binding_cliptab_\(binding.id) = \(chord)\ncommand_cliptab_\(binding.id) = \(command)"
        case "hyprland":
            let chord = names { $0 == .superKey ? "SUPER" : $0.rawValue.uppercased() }.joined(separator: " ")
            return "bind\(release ? "r" : "") = \(chord), \(key), exec, \(command)"
        default:
            return nil
        }
    }

    private static func i3Modifier(_ modifier: KeyBinding.Modifier) -> String {
        switch modifier {
        case .superKey: "Mod4"
        case .alt: "Mod1"
        case .ctrl: "Control"
        case .shift: "Shift"
        }
    }

    private static func labwcModifier(_ modifier: KeyBinding.Modifier) -> String {
        switch modifier {
        case .superKey: "W"
        case .alt: "A"
        case .ctrl: "C"
        case .shift: "S"
        }
    }

    /// `word` as one word of `sh`: as it is when it needs no quotes, else in single quotes.
    static func shellWord(_ word: String) -> String {
        let plain =
            !word.isEmpty
            && word.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
                    || "-_.:/@%+=,".unicodeScalars.contains($0)
            }
        return plain ? word : "'" + word.replacing("'", with: "'\\''") + "'"
    }

    private static func escaped(_ text: String) -> String {
        text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"")
    }

    private static func xml(_ text: String) -> String {
        text.replacing("&", with: "&amp;").replacing("\"", with: "&quot;").replacing("<", with: "&lt;")
    }
}
