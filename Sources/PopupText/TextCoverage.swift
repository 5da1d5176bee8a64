// SPDX-License-Identifier: MIT
import CPangoCairo
import InstalledFonts

/// Which characters some font can draw, so that pango is never handed one that none can.
///
/// pango looks a character its font lacks up in every font of the fallback set, and for one
/// that no installed font has that is every installed font, character by character: a line
/// of a few hundred such characters (a private-use area, an unassigned plane) cost more than
/// the rest of the first frame. Such a character is drawn as U+FFFD instead, after one look
/// in the union of the installed fonts' character sets. Owns the font it asks first and that
/// union's reader.
final class TextCoverage {
    /// The font asked for, as loaded: most characters are answered by it alone.
    private let font: UnsafeMutablePointer<PangoFont>?
    /// Every character some scalable installed font has, read when a character the font
    /// lacks is first met.
    private let installed = InstalledCharacters()
    /// The answer for each character met that the font lacks.
    private var known: [UInt32: Bool] = [:]
    /// How many characters were looked up beyond the font (each once).
    private(set) var lookups = 0

    /// The font map `font` came from, kept until the font is released.
    private let fontMap: UnsafeMutablePointer<PangoFontMap>

    /// The coverage of `font` (owned from here; nil: every character is handed to pango),
    /// loaded from `fontMap`.
    init(font: UnsafeMutablePointer<PangoFont>?, of fontMap: UnsafeMutablePointer<PangoFontMap>) {
        self.font = font
        self.fontMap = fontMap
        CPangoCairo_ref(UnsafeMutableRawPointer(fontMap))
    }

    deinit {
        if let font { CPangoCairo_unref(UnsafeMutableRawPointer(font)) }
        CPangoCairo_unref(UnsafeMutableRawPointer(fontMap))
    }

    /// The character drawn where no font has one.
    static let replacement: Unicode.Scalar = "\u{FFFD}"

    /// `text` with every character no font can draw replaced by U+FFFD; `text` itself when
    /// it has none (printable ASCII is answered without a look).
    func drawable(_ text: Substring) -> Substring {
        guard text.utf8.contains(where: { $0 >= 0x80 }) else { return text }
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !canDraw($0) }) else { return text }
        var replaced = String.UnicodeScalarView(scalars[..<first])
        for scalar in scalars[first...] { replaced.append(canDraw(scalar) ? scalar : Self.replacement) }
        return Substring(String(replaced))
    }

    /// Whether the font, or some installed font, has `scalar`.
    private func canDraw(_ scalar: Unicode.Scalar) -> Bool {
        // Controls and combining marks are pango's to handle; ASCII is in every font.
        guard scalar.value >= 0x80, let font else { return true }
        if pango_font_has_char(font, scalar.value) != 0 { return true }
        if let answer = known[scalar.value] { return answer }
        lookups += 1
        let answer = installed.contains(scalar)
        known[scalar.value] = answer
        return answer
    }
}
