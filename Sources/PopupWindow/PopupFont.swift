// SPDX-License-Identifier: MIT
import CXft
import Glibc

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

    /// Starts reading fontconfig's configuration and caches on a thread of its own, so that
    /// it overlaps with what the caller does before it opens a font (fontconfig's setup is
    /// thread-safe; `open` waits for it if it is not done).
    ///
    /// The corresponding C function is `FcInit`.
    public static func warmUp() {
        var thread = pthread_t()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        // The thread starts with every signal blocked, so that SIGTERM always reaches the
        // thread that handles it.
        var all = sigset_t()
        var saved = sigset_t()
        sigfillset(&all)
        pthread_sigmask(SIG_BLOCK, &all, &saved)
        _ = pthread_create(
            &thread, &attributes,
            { _ in
                _ = FcInit()
                return nil
            }, nil)
        pthread_sigmask(SIG_SETMASK, &saved, nil)
        pthread_attr_destroy(&attributes)
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
