// SPDX-License-Identifier: MIT
import PopupWindow
import TestSupport
import Testing

/// Fonts on a real Xvfb with the fonts CI installs (DejaVu): fallbacks for what the
/// monospace font lacks, widths, and cutting text to fit.
@Suite(.serialized)
struct PopupFontTests {
    @Test func fallbackFontsCoverWhatTheFontLacks() throws {
        let display = try VirtualDisplay()
        defer { display.stop() }
        let connection = try PopupConnection.open(display.display)
        let font = try PopupFont.open("monospace:size=11", on: connection)
        // DejaVu Sans Mono has no 😀; DejaVu Sans has it.
        #expect(!font.hasGlyph("😀"))
        #expect(font.covers("a😀b"))
        #expect(font.width(of: "a😀b") > font.width(of: "ab"))
        // No installed font has a private-use character: it stays the font's (a box).
        #expect(!font.covers("\u{E000}"))
        #expect(font.width(of: "abc") == 3 * font.width(of: "a"))
    }

    @Test func fitCutsWithAnEllipsis() throws {
        let display = try VirtualDisplay()
        defer { display.stop() }
        let connection = try PopupConnection.open(display.display)
        let font = try PopupFont.open("monospace:size=11", on: connection)
        let text = String(repeating: "x", count: 40)
        #expect(font.fit(text, width: 1000) == text)
        let cut = font.fit(text, width: font.width(of: "xxxxxxxxxx"))
        #expect(cut.hasSuffix("…") && font.width(of: cut) <= font.width(of: "xxxxxxxxxx") && cut.count >= 8)
        #expect(font.fit(text, width: 0) == "")
    }
}
