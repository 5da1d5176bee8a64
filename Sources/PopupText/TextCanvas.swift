// SPDX-License-Identifier: MIT
import CPangoCairo
import MenuModel

/// Drawing into pixels the caller owns (ARGB32, premultiplied, as `wl_shm`'s ARGB8888):
/// rectangles, and lines of text shaped by pango (font fallback per character, right-to-left
/// runs), measured for `MenuLayout`.
///
/// Coordinates are logical pixels; `scale` maps them to the pixels of the memory. Owns the
/// cairo surface and context over the memory, and one pango layout.
public final class TextCanvas {
    private let surface: OpaquePointer
    private let context: OpaquePointer
    private let layout: OpaquePointer
    /// The font drawn with (its font map is this canvas's until the canvas goes).
    public let font: TextFont
    /// The font's line height in logical pixels.
    public var lineHeight: Int { font.lineHeight }
    /// The font's ascent in logical pixels.
    public var ascent: Int { font.ascent }
    /// The font's average character width in logical pixels.
    public var characterWidth: Int { font.characterWidth }
    /// UTF-8 bytes handed to pango so far: what the text cost to shape.
    public private(set) var shapedBytes = 0

    /// A canvas over `pixels` (`width` × `height` device pixels, `stride` bytes a row), drawing
    /// with `font` at `scale` device pixels per logical pixel.
    public init(
        pixels: UnsafeMutableRawPointer, width: Int, height: Int, stride: Int, scale: Int, font: TextFont
    ) throws(TextError) {
        let surface = cairo_image_surface_create_for_data(
            pixels.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32, Int32(width), Int32(height),
            Int32(stride))
        guard let surface, cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            throw TextError("cairo cannot draw into a \(width)×\(height) buffer")
        }
        guard let context = cairo_create(surface), cairo_status(context) == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            throw TextError("cairo cannot make a drawing context")
        }
        cairo_scale(context, Double(scale), Double(scale))
        guard let layout = font.makeLayout(for: context) else {
            cairo_destroy(context)
            cairo_surface_destroy(surface)
            throw TextError("pango cannot lay out text")
        }
        // Lines break (in `prefix(of:fitting:)` alone, the one place a width is set) between
        // any two characters.
        pango_layout_set_wrap(layout, PANGO_WRAP_CHAR)
        self.surface = surface
        self.context = context
        self.layout = layout
        self.font = font
    }

    deinit {
        CPangoCairo_unref(UnsafeMutableRawPointer(layout))
        cairo_destroy(context)
        cairo_surface_flush(surface)
        cairo_surface_destroy(surface)
    }

    /// Makes everything transparent.
    public func clear() {
        cairo_save(context)
        cairo_set_operator(context, CAIRO_OPERATOR_CLEAR)
        cairo_paint(context)
        cairo_restore(context)
    }

    /// Fills a rectangle with `color`, opaque.
    public func fill(x: Int, y: Int, width: Int, height: Int, color: TextColor) {
        cairo_set_source_rgb(context, color.red, color.green, color.blue)
        cairo_rectangle(context, Double(x), Double(y), Double(width), Double(height))
        cairo_fill(context)
    }

    /// Draws `text` as one line with its top at `y` (cut already: `MenuLayout` cuts every
    /// line to its room by `prefix(of:fitting:)`).
    public func text(_ text: String, x: Int, y: Int, color: TextColor) {
        set(text[...])
        cairo_set_source_rgb(context, color.red, color.green, color.blue)
        cairo_move_to(context, Double(x), Double(y))
        pango_cairo_show_layout(context, layout)
    }

    /// The width `text` takes as one line, uncut.
    public func width(of text: String) -> Int {
        set(text[...])
        return measured()
    }

    /// Puts `text` in the layout, characters no font has replaced; counts what it costs.
    private func set(_ text: Substring) {
        let bytes = String(font.coverage.drawable(text))
        TextFont.setText(layout, bytes)
        shapedBytes += bytes.utf8.count
    }

    private func measured() -> Int {
        var width: Int32 = 0
        var height: Int32 = 0
        pango_layout_get_pixel_size(layout, &width, &height)
        return Int(width)
    }
}

/// The layout's measures of the pango font: `MenuLayout` cuts and places text by them.
extension TextCanvas: MenuMetrics {
    /// The height of a line of text.
    public var textHeight: Int { lineHeight }

    /// The longest prefix of `text` that fits `width`, in whole characters as pango breaks
    /// them (right-to-left runs and clusters included).
    ///
    /// The text is cut first to what `width` can show (as for drawing), then pango breaks it
    /// into lines of `width`: the first line is the prefix.
    public func prefix(of text: String, fitting width: Int) -> Substring {
        guard width > 0 else { return text[..<text.startIndex] }
        // No character is narrower than a quarter of the average one in any font the
        // fallback picks for a line (combining marks add no width but ride on a base).
        let cut = TextCut.prefix(text, characters: 4 * (width / characterWidth + 2))
        let drawable = font.coverage.drawable(cut.text)
        TextFont.setText(layout, String(drawable))
        shapedBytes += drawable.utf8.count
        pango_layout_set_width(layout, Int32(clamping: width * Int(CPangoCairo_scale())))
        defer { pango_layout_set_width(layout, -1) }
        guard pango_layout_get_line_count(layout) > 1 else { return cut.text }
        let bytes = Int(pango_layout_get_line_readonly(layout, 0)?.pointee.length ?? 0)
        // `drawable` replaced characters one for one: as many of the text's as of its.
        let characters = String(decoding: drawable.utf8.prefix(bytes), as: UTF8.self).unicodeScalars.count
        let scalars = text.unicodeScalars
        var end = scalars.index(scalars.startIndex, offsetBy: characters)
        // Blanks at a broken line's end hang past the width in pango: they are not part of it.
        while end > scalars.startIndex && scalars[scalars.index(before: end)].properties.isWhitespace {
            scalars.formIndex(before: &end)
        }
        return text[..<end]
    }
}
