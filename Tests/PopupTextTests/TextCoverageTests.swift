// SPDX-License-Identifier: MIT
import MenuModel
import Testing

@testable import PopupText

/// Characters no installed font has reach pango as U+FFFD, after one look each in the
/// installed fonts (with the fonts CI installs: DejaVu).
@Suite struct TextCoverageTests {
    @Test func charactersNoFontHasAreReplacedAndLookedUpOnce() throws {
        let font = try TextFont(fontDescription: "DejaVu Sans Mono 11")
        let coverage = font.coverage
        #expect(coverage.drawable("plain text") == "plain text")
        #expect(coverage.drawable("café") == "café")
        #expect(coverage.lookups == 0, "characters of the font itself were looked up")
        // Hebrew is in DejaVu Sans, not in its monospace: pango's fallback draws it.
        #expect(coverage.drawable("a\u{05D0}b") == "a\u{05D0}b")
        // Plane 15 is private use: no installed font has it.
        #expect(coverage.drawable("x\u{F0000}\u{F0001}y\u{F0000}") == "x\u{FFFD}\u{FFFD}y\u{FFFD}")
        #expect(coverage.lookups == 3, "\(coverage.lookups) lookups for three distinct characters")
        _ = coverage.drawable("\u{F0000}\u{05D0}\u{F0001}")
        #expect(coverage.lookups == 3, "a character was looked up twice")
    }

    /// A line of characters no font has is measured cut and replaced: what pango shapes is
    /// the line's shown part, three bytes a character.
    @Test func aLineNoFontCanDrawIsCutThenReplaced() throws {
        let font = try TextFont(fontDescription: "DejaVu Sans Mono 11")
        let (width, height) = (400, 40)
        let pixels = UnsafeMutableRawPointer.allocate(byteCount: width * height * 4, alignment: 16)
        defer { pixels.deallocate() }
        let canvas = try TextCanvas(
            pixels: pixels, width: width, height: height, stride: width * 4, scale: 1, font: font)
        let line = String(String.UnicodeScalarView((0..<20_000).map { Unicode.Scalar(0xF0000 + $0)! }))
        #expect(canvas.prefix(of: line, fitting: width).unicodeScalars.count < 200)
        let cut = 4 * (width / font.characterWidth + 2)
        #expect(canvas.shapedBytes == 3 * cut, "\(canvas.shapedBytes) bytes shaped")
        #expect(font.coverage.lookups == cut)
    }

    /// The layout's rule on pango: what fits stays whole, a longer line is cut with "…" to at
    /// most the width, blanks at the cut are not kept, and a megabyte costs a screenful.
    @Test func cutFitsTheWidth() throws {
        let font = try TextFont(fontDescription: "DejaVu Sans Mono 11")
        let pixels = UnsafeMutableRawPointer.allocate(byteCount: 16 * 16 * 4, alignment: 16)
        defer { pixels.deallocate() }
        let canvas = try TextCanvas(pixels: pixels, width: 16, height: 16, stride: 64, scale: 1, font: font)
        #expect(canvas.cut("short", to: 200) == "short")
        let long = String(repeating: "x", count: 1_000_000)
        let cut = canvas.cut(long, to: 200)
        #expect(cut.hasSuffix("…") && canvas.width(of: cut) <= 200 && cut.count > 15, "\(cut)")
        #expect(canvas.shapedBytes < 2000, "\(canvas.shapedBytes) bytes shaped")
        let spaced = canvas.cut("ab" + String(repeating: " ", count: 300) + "cd", to: 200)
        #expect(spaced == "ab…")
    }
}
