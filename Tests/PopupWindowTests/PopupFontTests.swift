// SPDX-License-Identifier: MIT
import MenuModel
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
        #expect(font.cut(text, to: 1000) == text)
        let cut = font.cut(text, to: font.width(of: "xxxxxxxxxx"))
        #expect(cut.hasSuffix("…") && font.width(of: cut) <= font.width(of: "xxxxxxxxxx") && cut.count >= 8)
        #expect(font.cut(text, to: 0) == "")
        try checkLongLines(font)
    }

    /// Lines of a megabyte, and of thousands of characters no font has, cost what the width
    /// shown costs: counted as measurements, bytes handed to Xft and fallback searches.
    func checkLongLines(_ font: PopupFont) throws {
        let long = String(repeating: "x", count: 1_000_000)
        // Sums that cannot wrap: Xft's own 16-bit advance of this line is 9,000,000 mod 65,536.
        #expect(font.width(of: long) == 1_000_000 * font.width(of: "x"))
        var bytes = font.measuredBytes
        var measurements = font.measurements
        let cut = font.cut(long, to: 600)
        #expect(cut.hasSuffix("…") && font.width(of: cut) <= 600 && cut.count > 10)
        #expect(
            font.measuredBytes - bytes <= 16,
            "fitting a 1 MB line handed \(font.measuredBytes - bytes) bytes to Xft")

        // 20,000 distinct characters no installed font has, one line.
        var unknown = String.UnicodeScalarView()
        var value: UInt32 = 0xE000
        var made = 0
        while made < 20_000 {
            if let scalar = Unicode.Scalar(value) {
                unknown.append(scalar)
                made += 1
            }
            value = value == 0xF8FF ? 0xF0000 : value + 1
        }
        let line = String(unknown)
        let searches = font.fallbackSearches
        measurements = font.measurements
        bytes = font.measuredBytes
        let shown = font.cut(line, to: 600)
        #expect(shown.hasSuffix("…") && font.width(of: shown) <= 600)
        // Only the characters that show are measured, and none needs a font match.
        #expect(
            font.fallbackSearches - searches == 0, "\(font.fallbackSearches - searches) fallback searches")
        #expect(
            font.measurements - measurements <= 600,
            "fitting 20,000 unknown characters took \(font.measurements - measurements) measurements")
        // Measured once: the same line again hands Xft nothing.
        bytes = font.measuredBytes
        #expect(font.cut(line, to: 600) == shown && font.measuredBytes == bytes)
    }
}
