// SPDX-License-Identifier: MIT
import CPangoCairo
import Glibc

/// A font ready to draw with: pango's font map with the font loaded, measured, and the
/// glyphs of everyday text already rasterised in cairo's glyph cache.
///
/// Readying a font is most of a popup's own work before its first frame: fontconfig reads
/// its configuration and caches, pango sorts the fallback fonts and measures, FreeType
/// rasterises the glyphs. `TextFont.prepare` does it on a thread of its own while the
/// caller waits on the compositor and the daemon; `TextFont.Preparation.wait` joins it. The
/// font map is used by one thread at a time: the helper's until the join, the caller's after.
public final class TextFont: @unchecked Sendable {
    /// pango's cairo font map (its font and glyph caches), owned.
    let fontMap: UnsafeMutablePointer<PangoFontMap>
    /// The font asked for, owned.
    let description: OpaquePointer
    /// The font's line height, ascent, average character width and the width of the digit 0
    /// in logical pixels.
    public let lineHeight: Int, ascent: Int, characterWidth: Int, digitWidth: Int
    /// Which characters some font can draw.
    let coverage: TextCoverage

    /// A font's sizes in logical pixels: all a layout needs before anything is drawn.
    public struct Measures: Sendable {
        /// The height of one line.
        public let lineHeight: Int
        /// From a line's top to its baseline.
        public let ascent: Int
        /// The average character width.
        public let characterWidth: Int
        /// The width of the digit 0 (the unit of the `[menu] width` setting).
        public let digitWidth: Int
    }

    /// The sizes of this font.
    public var measures: Measures {
        Measures(
            lineHeight: lineHeight, ascent: ascent, characterWidth: characterWidth, digitWidth: digitWidth)
    }

    /// Loads and measures the pango font `fontDescription` (telling `measured` as soon as
    /// it is measured), and rasterises `warmText` at `scale` so that a first frame finds
    /// those glyphs cached.
    ///
    /// The measures come from `warmText` in one layout, shaped once for both: the average
    /// character width is its width over its characters (pango's own approximate width
    /// averages the language's sample sentence instead, and pango_context_get_metrics shapes
    /// that sentence again with every font of the fallback set).
    public init(
        fontDescription: String, scale: Int = 1, warmText: String = TextFont.everydayText,
        measured: (Measures) -> Void = { _ in }
    ) throws(TextError) {
        // fontconfig reads its configuration and caches here: pango would otherwise start a
        // thread of its own for it and wait on that, which costs milliseconds more.
        guard FcInit() != 0, let fontMap = pango_cairo_font_map_new() else {
            throw TextError("pango has no font map (fontconfig)")
        }
        guard let description = pango_font_description_from_string(fontDescription) else {
            CPangoCairo_unref(UnsafeMutableRawPointer(fontMap))
            throw TextError("pango cannot read the font \"\(fontDescription)\"")
        }
        self.fontMap = fontMap
        self.description = description
        var lineHeight = 1
        var ascent = 1
        var characterWidth = 1
        var digitWidth = 1
        var loaded: UnsafeMutablePointer<PangoFont>?
        // One scratch surface to shape on, a second as large as the text to draw it on: cairo
        // skips glyphs that fall outside its surface unrasterised.
        Self.withCairo(width: 1, height: 1, scale: scale) { cairo in
            guard let layout = Self.makeLayout(fontMap, description, for: cairo) else { return }
            defer { CPangoCairo_unref(UnsafeMutableRawPointer(layout)) }
            loaded = pango_font_map_load_font(fontMap, pango_layout_get_context(layout), description)
            Self.setText(layout, warmText)
            var ink = PangoRectangle()
            var logical = PangoRectangle()
            pango_layout_get_extents(layout, &ink, &logical)
            let unit = Double(CPangoCairo_scale())
            let count = Double(max(1, warmText.count))
            characterWidth = max(1, Int((Double(logical.width) / unit / count).rounded()))
            lineHeight = max(1, Int((Double(logical.height) / unit).rounded(.up)))
            ascent = Int((Double(pango_layout_get_baseline(layout)) / unit).rounded(.up))
            // The digit's own box in the layout already shaped: no text shaped for it alone.
            digitWidth = characterWidth
            if let zero = warmText.utf8.firstIndex(of: UInt8(ascii: "0")) {
                var box = PangoRectangle()
                pango_layout_index_to_pos(
                    layout, Int32(warmText.utf8.distance(from: warmText.utf8.startIndex, to: zero)), &box)
                digitWidth = max(1, Int((Double(box.width) / unit).rounded()))
            }
            measured(
                Measures(
                    lineHeight: lineHeight, ascent: ascent, characterWidth: characterWidth,
                    digitWidth: digitWidth))
            let width = Int(Double(logical.width) / unit) + 2
            Self.withCairo(width: width, height: lineHeight + 2, scale: scale) { target in
                pango_cairo_show_layout(target, layout)
            }
        }
        self.lineHeight = lineHeight
        self.ascent = ascent
        self.characterWidth = characterWidth
        self.digitWidth = digitWidth
        coverage = TextCoverage(font: loaded, of: fontMap)
    }

    /// Runs `body` with a cairo context over a scratch image of `width` × `height` logical
    /// pixels at `scale` (nothing when cairo has no memory for it).
    private static func withCairo(width: Int, height: Int, scale: Int, _ body: (OpaquePointer) -> Void) {
        let surface = cairo_image_surface_create(
            CAIRO_FORMAT_ARGB32, Int32(clamping: width * scale), Int32(clamping: height * scale))
        defer { cairo_surface_destroy(surface) }
        guard let cairo = cairo_create(surface) else { return }
        defer { cairo_destroy(cairo) }
        cairo_scale(cairo, Double(scale), Double(scale))
        body(cairo)
    }

    deinit {
        pango_font_description_free(description)
        CPangoCairo_unref(UnsafeMutableRawPointer(fontMap))
    }

    /// What most rows are made of (lower case, digits, the common marks) and the marks the
    /// menus draw: the glyphs worth rasterising before the first frame (each costs some
    /// microseconds; others are rasterised when first drawn).
    public static let everydayText = " abcdefghijklmnopqrstuvwxyz0123456789.,:;-_/'\"()?!@›…"

    /// A one-line layout in this font for drawing with `cairo` (its scale and font options).
    func makeLayout(for cairo: OpaquePointer) -> OpaquePointer? {
        Self.makeLayout(fontMap, description, for: cairo)
    }

    private static func makeLayout(
        _ fontMap: UnsafeMutablePointer<PangoFontMap>, _ description: OpaquePointer, for cairo: OpaquePointer
    ) -> OpaquePointer? {
        guard let context = pango_font_map_create_context(fontMap) else { return nil }
        defer { CPangoCairo_unref(UnsafeMutableRawPointer(context)) }
        pango_cairo_update_context(cairo, context)
        // Named, not left unset (pango then takes the default for the text but no language
        // for the ellipsis, whose fallback set is then sorted again, on two threads of its own).
        pango_context_set_language(context, pango_language_get_default())
        guard let layout = pango_layout_new(context) else { return nil }
        pango_layout_set_font_description(layout, description)
        pango_layout_set_single_paragraph_mode(layout, 1)
        return layout
    }

    /// Puts `text` into `layout`.
    static func setText(_ layout: OpaquePointer?, _ text: String) {
        var bytes = text
        bytes.withUTF8 { buffer in
            buffer.withMemoryRebound(to: CChar.self) {
                pango_layout_set_text(layout, $0.baseAddress, Int32(clamping: $0.count))
            }
        }
    }

    /// Starts readying the font `fontDescription` on a helper thread.
    public static func prepare(fontDescription: String, scale: Int = 1) -> Preparation {
        Preparation(fontDescription: fontDescription, scale: scale)
    }

    /// A font being readied on a helper thread: `measures` tells its sizes as soon as the
    /// helper has them (a layout and a buffer can be made while it rasterises), `wait`
    /// takes the font.
    public final class Preparation: @unchecked Sendable {
        private let fontDescription: String
        private let scale: Int
        private var thread: pthread_t?
        private var result: Result<TextFont, TextError>?
        /// Set by the helper under `lock`, then `measuredOrDone` is signalled.
        private var early: Measures?
        private var done = false
        private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        private let measuredOrDone = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

        fileprivate init(fontDescription: String, scale: Int) {
            self.fontDescription = fontDescription
            self.scale = scale
            pthread_mutex_init(lock, nil)
            pthread_cond_init(measuredOrDone, nil)
            var thread = pthread_t()
            let started = pthread_create(
                &thread, nil,
                { raw in
                    let preparation = Unmanaged<Preparation>.fromOpaque(raw!).takeRetainedValue()
                    let result = preparation.load()
                    preparation.locked {
                        preparation.result = result
                        preparation.done = true
                    }
                    return nil
                }, Unmanaged.passRetained(self).toOpaque())
            // No thread to be had: the font is readied when it is waited for.
            if started == 0 {
                self.thread = thread
            } else {
                Unmanaged.passUnretained(self).release()
            }
        }

        deinit {
            if let thread { pthread_join(thread, nil) }
            pthread_cond_destroy(measuredOrDone)
            pthread_mutex_destroy(lock)
            measuredOrDone.deallocate()
            lock.deallocate()
        }

        /// Runs `body` holding the lock, then wakes the waiting caller.
        private func locked(_ body: () -> Void) {
            pthread_mutex_lock(lock)
            body()
            pthread_cond_broadcast(measuredOrDone)
            pthread_mutex_unlock(lock)
        }

        private func load() -> Result<TextFont, TextError> {
            do throws(TextError) {
                let font = try TextFont(fontDescription: fontDescription, scale: scale) { measures in
                    self.locked { self.early = measures }
                }
                return .success(font)
            } catch {
                return .failure(error)
            }
        }

        /// The font's sizes, as soon as the helper has measured it (the font itself, when
        /// it could not start).
        public func measures() throws(TextError) -> Measures {
            guard thread != nil else { return try wait().measures }
            pthread_mutex_lock(lock)
            while early == nil && !done { pthread_cond_wait(measuredOrDone, lock) }
            let measures = early
            pthread_mutex_unlock(lock)
            if let measures { return measures }
            return try wait().measures
        }

        /// The font, once the helper has readied it (or readied here when it could not start).
        public func wait() throws(TextError) -> TextFont {
            if let thread {
                pthread_join(thread, nil)
                self.thread = nil
            }
            if result == nil { result = load() }
            return try result!.get()
        }
    }
}
