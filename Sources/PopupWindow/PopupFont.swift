// SPDX-License-Identifier: MIT
import CXft

/// A font opened through Xft (fontconfig names such as `monospace:size=11`).
///
/// The corresponding C type is `XftFont`; it is closed in `deinit`.
public final class PopupFont {
    let connection: PopupConnection
    let font: UnsafeMutablePointer<XftFont>

    private init(connection: PopupConnection, font: UnsafeMutablePointer<XftFont>) {
        self.connection = connection
        self.font = font
    }

    /// Opens the font named `name` (fontconfig substitutes a near one for an unknown family).
    ///
    /// The corresponding C function is `XftFontOpenName`.
    public static func open(_ name: String, on connection: PopupConnection) throws -> PopupFont {
        guard let font = XftFontOpenName(connection.display, connection.screen, name) else {
            throw PopupError("cannot open the font \"\(name)\"")
        }
        return PopupFont(connection: connection, font: font)
    }

    deinit { XftFontClose(connection.display, font) }

    /// Pixels above the baseline.
    public var ascent: Int { Int(font.pointee.ascent) }
    /// The height of a line of text.
    public var height: Int { Int(font.pointee.ascent + font.pointee.descent) }

    /// The advance of `text` in pixels.
    ///
    /// The corresponding C function is `XftTextExtentsUtf8`.
    public func width(of text: String) -> Int {
        var extents = XGlyphInfo()
        var bytes = Array(text.utf8)
        XftTextExtentsUtf8(connection.display, font, &bytes, Int32(bytes.count), &extents)
        return Int(extents.xOff)
    }

    /// Whether the font has a glyph for `scalar`.
    public func hasGlyph(_ scalar: Unicode.Scalar) -> Bool {
        XftCharExists(connection.display, font, scalar.value) != 0
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
