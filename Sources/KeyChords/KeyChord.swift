// SPDX-License-Identifier: MIT
import CXKBCommon

/// A key with modifiers, such as `ctrl+shift+v`: what the paste keystroke presses.
///
/// Keys are X keysyms, named as X names them (libxkbcommon reads the names), so that the
/// configuration, the policy and every injector read chords without linking a display's
/// library.
public struct KeyChord: Equatable, Sendable, CustomStringConvertible {
    /// The modifier keysyms, pressed in this order before the key and released after it.
    public let modifiers: [UInt]
    /// The key's keysym.
    public let key: UInt
    /// The chord as written, normalised: `ctrl+shift+v`.
    public let description: String

    /// Why a chord could not be read.
    public struct ParseError: Error, Equatable, Sendable, CustomStringConvertible {
        /// What was wrong.
        public let description: String
    }

    /// Reads `modifier+…+key`: modifiers `ctrl` (`control`), `shift`, `alt` (`meta`),
    /// `super` (`win`); the key is an X keysym name (`v`, `Insert`), a single letter in
    /// either case standing for its key.
    public init(parsing text: String) throws(ParseError) {
        let parts = text.split(separator: "+", omittingEmptySubsequences: false).map {
            String($0).trimmingBlanks()
        }
        guard let last = parts.last, !last.isEmpty, !parts.dropLast().contains(where: \.isEmpty) else {
            throw ParseError(
                description:
                    "expected modifiers and a key joined by \"+\" (such as ctrl+shift+v), found \"\(text)\"")
        }
        var modifiers: [UInt] = []
        var names: [String] = []
        for name in parts.dropLast() {
            let keysym: Int32
            let canonical: String
            switch name.lowercased() {
            case "ctrl", "control": (keysym, canonical) = (XKB_KEY_Control_L, "ctrl")
            case "shift": (keysym, canonical) = (XKB_KEY_Shift_L, "shift")
            case "alt", "meta": (keysym, canonical) = (XKB_KEY_Alt_L, "alt")
            case "super", "win": (keysym, canonical) = (XKB_KEY_Super_L, "super")
            default:
                throw ParseError(
                    description:
                        "unknown modifier \"\(name)\" in \"\(text)\" (known: ctrl, shift, alt, super)")
            }
            if !modifiers.contains(UInt(keysym)) {
                modifiers.append(UInt(keysym))
                names.append(canonical)
            }
        }
        // A letter names its key: the shifted keysym (V) would ask for Shift by itself.
        let keyName = last.count == 1 ? last.lowercased() : last
        let key = UInt(xkb_keysym_from_name(keyName, XKB_KEYSYM_NO_FLAGS))
        guard key != UInt(XKB_KEY_NoSymbol) else {
            throw ParseError(
                description: "unknown key \"\(last)\" in \"\(text)\" (an X keysym name such as v or Insert)")
        }
        self.modifiers = modifiers
        self.key = key
        description = (names + [keyName]).joined(separator: "+")
    }
}

extension String {
    /// The string without leading and trailing spaces and tabs.
    fileprivate func trimmingBlanks() -> String {
        var view = Substring(self)
        while let first = view.first, first == " " || first == "\t" { view = view.dropFirst() }
        while let last = view.last, last == " " || last == "\t" { view = view.dropLast() }
        return String(view)
    }
}
