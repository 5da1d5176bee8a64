// SPDX-License-Identifier: MIT
import PopupWindow
import TestSupport
import Testing

/// Fonts on a real Xvfb with the fonts CI installs (DejaVu): fallbacks for what the
/// monospace font lacks, widths, and cutting text to fit.
///
/// One test, one display: Xft keeps per-display state for the life of the process, and this
/// process runs every test target. A second display opened and closed in the same process
/// (while the first one's Xvfb was being stopped) once aborted the whole run inside Xlib
/// ("extra reply data still left in queue"), so the font and the connection are closed here
/// before the server is stopped, and only once.
@Suite(.serialized)
struct PopupFontTests {
    @Test func fallbacksWidthsAndFitting() throws {
        let display = try VirtualDisplay()
        defer { display.stop() }
        // Every X object lives in this call, so all are closed before the server stops.
        try checkFonts(on: display.display)
    }

    /// Opens a connection and a font on `name` and checks them; both close on return.
    func checkFonts(on name: String) throws {
        let connection = try PopupConnection.open(name)
        let font = try PopupFont.open("monospace:size=11", on: connection)
        // DejaVu Sans Mono has no 😀; DejaVu Sans has it.
        #expect(!font.hasGlyph("😀"))
        #expect(font.covers("a😀b"))
        #expect(font.width(of: "a😀b") > font.width(of: "ab"))
        // No installed font has a private-use character: it stays the font's (a box).
        #expect(!font.covers("\u{E000}"))
        #expect(font.width(of: "abc") == 3 * font.width(of: "a"))

        let text = String(repeating: "x", count: 40)
        #expect(font.fit(text, width: 1000) == text)
        let cut = font.fit(text, width: font.width(of: "xxxxxxxxxx"))
        #expect(cut.hasSuffix("…") && font.width(of: cut) <= font.width(of: "xxxxxxxxxx") && cut.count >= 8)
        #expect(font.fit(text, width: 0) == "")
    }
}
