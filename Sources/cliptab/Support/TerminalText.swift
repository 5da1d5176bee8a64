// SPDX-License-Identifier: MIT

/// Text made safe to print on a terminal for people to read.
enum TerminalText {
    /// `text` with every control character but the newline and the tab written as `\xHH`
    /// (C0 and DEL) or `\u{HHHH}` (C1), so that a cell cannot move the cursor, retitle the
    /// window or change colours (escape sequences start with ESC, 0x1B, or with C1's CSI).
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

    /// True for C0 controls other than newline and tab, DEL, and C1 controls.
    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value == 0x0A || value == 0x09 { return false }
        return value < 0x20 || (value >= 0x7F && value <= 0x9F)
    }
}
