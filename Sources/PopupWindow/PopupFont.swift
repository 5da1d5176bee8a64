// SPDX-License-Identifier: MIT
import CXft
import InstalledFonts
import MenuModel

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
    /// The font chosen for each character met so far (0: this font, n: fallback n - 1), so
    /// that a character is looked up in the fonts once, not at every measure or draw.
    private var choices: [UInt32: Int] = [:]
    /// The advance of each character met so far, in pixels, with the font chosen for it.
    private var advances: [UInt32: Int] = [:]
    /// Every character some scalable installed font has (read when a character none of the
    /// open fonts has is first met): one missing from it needs no font match.
    private let installed = InstalledCharacters()

    /// How many times text was handed to Xft to be measured (`XftTextExtentsUtf8`).
    public private(set) var measurements = 0
    /// How many bytes of text were handed to Xft to be measured.
    public private(set) var measuredBytes = 0
    /// How many fallback fonts were searched for (`XftFontMatch`).
    public private(set) var fallbackSearches = 0

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

    /// The advance of `text` in pixels: the sum of its characters' advances, in `Int` (Xft's
    /// own extents are 16-bit and wrap past 32,767 pixels).
    public func width(of text: String) -> Int {
        var total = 0
        for scalar in text.unicodeScalars { total += advance(scalar) }
        return total
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

    /// The advance of `scalar` drawn with the font chosen for it, measured once.
    ///
    /// The corresponding C function is `XftTextExtentsUtf8`.
    private func advance(_ scalar: Unicode.Scalar) -> Int {
        if let known = advances[scalar.value] { return known }
        var extents = XGlyphInfo()
        var bytes = Array(String(scalar).utf8)
        measurements += 1
        measuredBytes += bytes.count
        XftTextExtentsUtf8(connection.display, font(for: scalar), &bytes, Int32(bytes.count), &extents)
        let width = Int(extents.xOff)
        advances[scalar.value] = width
        return width
    }

    /// The font that draws `scalar`, chosen once per character.
    ///
    /// It is this one, a fallback already open, or a new fallback matched for it; this one
    /// when none has it (it draws a box).
    private func font(for scalar: Unicode.Scalar) -> UnsafeMutablePointer<XftFont> {
        if let known = choices[scalar.value] { return known == 0 ? font : fallbacks[known - 1] }
        let chosen = choose(scalar)
        choices[scalar.value] = chosen
        return chosen == 0 ? font : fallbacks[chosen - 1]
    }

    /// The index of the font for `scalar` (0: this font, n: fallback n - 1).
    private func choose(_ scalar: Unicode.Scalar) -> Int {
        let display = connection.display
        if XftCharExists(display, font, scalar.value) != 0 || scalar.value < 0x20 { return 0 }
        if let open = fallbacks.firstIndex(where: { XftCharExists(display, $0, scalar.value) != 0 }) {
            return open + 1
        }
        guard installed.contains(scalar), let found = openFallback(for: scalar.value) else { return 0 }
        fallbacks.append(found)
        return fallbacks.count
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
        fallbackSearches += 1
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
}

/// The layout's measures of an Xft font: `MenuLayout` cuts and places text by them.
extension PopupFont: MenuMetrics {
    /// The height of a line of text.
    public var textHeight: Int { height }

    /// The longest prefix of `text` that fits `width` pixels, in whole Unicode scalars.
    ///
    /// Only what can show is measured: characters are added one by one until the next one
    /// would not fit, and at most `width` of them are looked at (one that shows takes a
    /// pixel at least), so a line of megabytes costs what a line of the window's width does.
    public func prefix(of text: String, fitting width: Int) -> Substring {
        let scalars = text.unicodeScalars
        var used = 0
        var index = scalars.startIndex
        var looked = 0
        while index != scalars.endIndex && looked < width {
            let next = used + advance(scalars[index])
            guard next <= width else { break }
            used = next
            looked += 1
            scalars.formIndex(after: &index)
        }
        return text[..<index]
    }
}
