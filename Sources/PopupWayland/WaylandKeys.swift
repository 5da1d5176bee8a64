// SPDX-License-Identifier: MIT
import MenuModel

/// The menu's keys from Wayland key presses (XKB keysyms, as libxkbcommon reports them).
enum WaylandKeys {
    /// The keysyms the menu acts on (xkbcommon-keysyms.h), keypad twins included.
    private static let named: [UInt32: MenuKey] = [
        0xff52: .up, 0xff97: .up, 0xff54: .down, 0xff99: .down,
        0xff55: .pageUp, 0xff9a: .pageUp, 0xff56: .pageDown, 0xff9b: .pageDown,
        0xff50: .home, 0xff95: .home, 0xff57: .end, 0xff9c: .end,
        0xff0d: .enter, 0xff8d: .enter, 0xff1b: .escape, 0xff09: .tab, 0xfe20: .tab,
        0xff53: .right, 0xff98: .right, 0xff51: .left, 0xff96: .left,
        0xff08: .backspace, 0xffff: .delete, 0xff9f: .delete,
    ]

    /// The key a press of `keysym` typing `text` is, or nil for keys the menu ignores
    /// (modifiers, Control chords, control characters).
    static func key(keysym: UInt32, text: String, control: Bool) -> MenuKey? {
        if let key = named[keysym] { return key }
        if control || text.isEmpty { return nil }
        if text.unicodeScalars.contains(where: { $0.value < 32 || $0.value == 127 }) { return nil }
        return .text(text)
    }
}
