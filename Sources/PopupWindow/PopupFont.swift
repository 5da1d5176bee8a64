// SPDX-License-Identifier: MIT
import CXft

/// A font opened through Xft (fontconfig names such as `monospace:size=11`).
///
/// The corresponding C type is `XftFont`; it is closed in `deinit`, with the fallback fonts
/// opened for characters it lacks.
public final class PopupFont {
    let connection: PopupConnection
    let font: UnsafeMutablePointer<XftFont>
    /// The fontconfig name it was opened by, the base of its fallbacks' patterns.
    private let name: String
    /// Fonts opened for characters the font lacks, in the order they were needed.
    private var fallbacks: [UnsafeMutablePointer<XftFont>] = []
    /// Characters no font has: not looked for again.
    private var unmatched: Set<UInt32> = []

    private init(connection: PopupConnection, font: UnsafeMutablePointer<XftFont>, name: String) {
        self.connection = connection
        self.font = font
        self.name = name
    }

    /// Opens the font named `name` (fontconfig substitutes a near one for an unknown family).
    ///
    /// The corresponding C function is `XftFontOpenName`.
    public static func open(_ name: String, on connection: PopupConnection) throws -> PopupFont {
        guard let font = XftFontOpenName(connection.display, connection.screen, name) else {
            throw PopupError("cannot open the font \"\(name)\"")
        }
        return PopupFont(connection: connection, font: font, name: name)
    }

    deinit {
        for fallback in fallbacks { XftFontClose(connection.display, fallback) }
        XftFontClose(connection.display, font)
    }

    /// Pixels above the baseline.
    public var ascent: Int { Int(font.pointee.ascent) }
    /// The height of a line of text.
    public var height: Int { Int(font.pointee.ascent + font.pointee.descent) }

    /// The advance of `text` in pixels.
    ///
    /// The corresponding C function is `XftTextExtentsUtf8`.
    public func width(of text: String) -> Int {
        runs(text).reduce(0) { $0 + advance($1.text, $1.font) }
    }

    /// Whether the font itself has a glyph for `scalar`.
    public func hasGlyph(_ scalar: Unicode.Scalar) -> Bool {
        XftCharExists(connection.display, font, scalar.value) != 0
    }

    /// Whether every character of `text` has a glyph in the font or a fallback of it.
    public func covers(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy {
            XftCharExists(connection.display, self.font(for: $0), $0.value) != 0
        }
    }

    /// `text` split into runs that one font draws each.
    func runs(_ text: String) -> [(text: String, font: UnsafeMutablePointer<XftFont>)] {
        var runs: [(text: String, font: UnsafeMutablePointer<XftFont>)] = []
        for scalar in text.unicodeScalars {
            let chosen = font(for: scalar)
            if let last = runs.last, last.font == chosen {
                runs[runs.count - 1].text.unicodeScalars.append(scalar)
            } else {
                runs.append((String(scalar), chosen))
            }
        }
        return runs
    }

    /// The advance of `text` drawn with `font`.
    private func advance(_ text: String, _ font: UnsafeMutablePointer<XftFont>) -> Int {
        var extents = XGlyphInfo()
        var bytes = Array(text.utf8)
        XftTextExtentsUtf8(connection.display, font, &bytes, Int32(bytes.count), &extents)
        return Int(extents.xOff)
    }

    /// The font that draws `scalar`: this one, a fallback already open, or a new fallback
    /// matched for it; this one when none has it (it draws a box).
    private func font(for scalar: Unicode.Scalar) -> UnsafeMutablePointer<XftFont> {
        let display = connection.display
        if XftCharExists(display, font, scalar.value) != 0 || scalar.value < 0x20 { return font }
        if let open = fallbacks.first(where: { XftCharExists(display, $0, scalar.value) != 0 }) {
            return open
        }
        if unmatched.contains(scalar.value) { return font }
        if let found = openFallback(for: scalar.value) {
            fallbacks.append(found)
            return found
        }
        unmatched.insert(scalar.value)
        return font
    }

    /// A font for `character`, matched from a copy of the name's own pattern (the open font's
    /// pattern would match the same font again) with the character required.
    private func openFallback(for character: UInt32) -> UnsafeMutablePointer<XftFont>? {
        let display = connection.display
        guard let pattern = FcNameParse(name), let characters = FcCharSetCreate() else { return nil }
        defer {
            FcCharSetDestroy(characters)
            FcPatternDestroy(pattern)
        }
        FcCharSetAddChar(characters, character)
        FcPatternAddCharSet(pattern, "charset", characters)
        FcPatternAddBool(pattern, "scalable", 1)
        FcConfigSubstitute(nil, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        var result = FcResultNoMatch
        guard let match = XftFontMatch(display, connection.screen, pattern, &result) else { return nil }
        // On success the font owns the matched pattern.
        guard let opened = XftFontOpenPattern(display, match) else {
            FcPatternDestroy(match)
            return nil
        }
        guard XftCharExists(display, opened, character) != 0 else {
            XftFontClose(display, opened)
            return nil
        }
        return opened
    }

    /// `text` cut to fit `width` pixels, ending in "…" when cut.
    public func fit(_ text: String, width limit: Int) -> String {
        guard limit > 0 else { return "" }
        if width(of: text) <= limit { return text }
        let characters = Array(text)
        // The longest prefix that still fits with the ellipsis, found by halving.
        var low = 0
        var high = characters.count
        while low < high {
            let middle = (low + high + 1) / 2
            if width(of: String(characters[..<middle]) + "…") <= limit {
                low = middle
            } else {
                high = middle - 1
            }
        }
        return String(characters[..<low]) + "…"
    }
}
