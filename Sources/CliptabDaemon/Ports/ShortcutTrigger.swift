// SPDX-License-Identifier: MIT

/// The keys of a `[keys]` binding in the XDG shortcuts specification's trigger syntax, the
/// `preferred_trigger` the GlobalShortcuts portal takes: xkbcommon's modifier names (`CTRL`,
/// `ALT`, `SHIFT`, `NUM`, `LOGO`) and a keysym name, joined by `+` (`Super+Alt+I` is
/// `LOGO+ALT+i`).
public enum ShortcutTrigger {
    /// The trigger for `keys` (`Super+Alt+I`), or nil when a part is no modifier the
    /// specification names or the key is missing: the portal is then asked without a
    /// preferred trigger, and the desktop's dialog lets the person choose one.
    ///
    /// A single letter becomes the lower-case keysym: the specification names keys, not
    /// the characters Shift makes of them, and `I` would be the keysym of Shift+i.
    public static func preferred(for keys: String) -> String? {
        let parts = keys.split(separator: "+", omittingEmptySubsequences: false).map {
            $0.trimmingWhitespace()
        }
        guard let key = parts.last, !key.isEmpty, key.utf8.allSatisfy(isKeysymByte) else { return nil }
        var trigger: [String] = []
        for part in parts.dropLast() {
            guard let modifier = modifierNames[part.lowercased()] else { return nil }
            if !trigger.contains(modifier) { trigger.append(modifier) }
        }
        let isLetter =
            key.utf8.count == 1 && key.utf8.allSatisfy { ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7a }
        trigger.append(isLetter ? key.lowercased() : key)
        return trigger.joined(separator: "+")
    }

    /// The modifiers as `cliptab.conf` writes them (any case), and xkbcommon's name of each.
    static let modifierNames = [
        "super": "LOGO", "logo": "LOGO", "ctrl": "CTRL", "control": "CTRL", "alt": "ALT", "shift": "SHIFT",
    ]

    /// Keysym names hold letters, digits and underscores only.
    private static func isKeysymByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7a) || byte == 0x5f
    }
}

extension Substring {
    /// Without the blanks around it.
    fileprivate func trimmingWhitespace() -> String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
