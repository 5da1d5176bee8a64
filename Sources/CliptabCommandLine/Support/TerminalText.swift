// SPDX-License-Identifier: MIT

/// Text made safe to print on a terminal for people to read.
enum TerminalText {
    /// `text` with every control character but the newline and the tab written as `\xHH`
    /// (C0 and DEL) or `\u{HHHH}` (C1, and the bidirectional controls), so that a cell cannot
    /// move the cursor, retitle the window or change colours (escape sequences start with
    /// ESC, 0x1B, or with C1's CSI), nor show the rest of a line reversed (U+202E).
    static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar) else {
                result.append(scalar)
                continue
            }
            let hex = String(scalar.value, radix: 16)
            let spelled = scalar.value < 0x80 ? "\\x" + (hex.count < 2 ? "0" : "") + hex : "\\u{" + hex + "}"
            result.append(contentsOf: spelled.unicodeScalars)
        }
        return String(result)
    }

    /// True for C0 controls other than newline and tab, DEL, C1 controls, and the
    /// bidirectional formatting characters (U+061C, U+200E, U+200F, U+202A–U+202E,
    /// U+2066–U+2069), which reorder what follows them on the line.
    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value == 0x0A || value == 0x09 { return false }
        if value < 0x20 || (value >= 0x7F && value <= 0x9F) { return true }
        return value == 0x061C || value == 0x200E || value == 0x200F || (0x202A...0x202E).contains(value)
            || (0x2066...0x2069).contains(value)
    }
}
