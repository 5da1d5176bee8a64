// SPDX-License-Identifier: MIT

/// The forms of one owned text other than UTF-8 (ISO 8859-1, ASCII, COMPOUND_TEXT), each
/// converted on its first request and then shared.
///
/// Every later request, and every INCR transfer, holds a reference to the same buffer, so
/// a thousand STRING requests cost one converted copy, not a thousand. The buffers are
/// `WipingBuffer`s: zeroed when the ownership and the last transfer using them are gone.
final class ConvertedForms {
    private var latin1Form: (buffer: WipingBuffer, lossless: Bool)?
    private var asciiForm: WipingBuffer?
    private var compoundForm: WipingBuffer?

    /// Makes an empty cache.
    init() {}

    /// The text in ISO 8859-1 with `?` for other characters, and whether nothing was lost.
    func latin1(of text: WipingBuffer) -> (buffer: WipingBuffer, lossless: Bool) {
        if let latin1Form { return latin1Form }
        var (bytes, lossless) = text.withBytes { TextEncoding.latin1(fromUTF8: $0) }
        let form = (WipingBuffer.taking(&bytes), lossless)
        latin1Form = form
        return form
    }

    /// The text in ASCII (text/plain), with `?` for other characters.
    func ascii(of text: WipingBuffer) -> WipingBuffer {
        if let asciiForm { return asciiForm }
        var bytes = text.withBytes { TextEncoding.ascii(fromUTF8: $0) }
        let form = WipingBuffer.taking(&bytes)
        asciiForm = form
        return form
    }

    /// COMPOUND_TEXT through Xlib; when the locale cannot convert, the ISO 8859-1 form,
    /// which is valid compound text (its initial state is ISO 8859-1), with `?` fallbacks.
    func compoundText(of text: WipingBuffer, connection: DisplayConnection) -> WipingBuffer {
        if let compoundForm { return compoundForm }
        let form: WipingBuffer
        if var converted = text.withBytes({ connection.compoundText(fromUTF8: $0) }) {
            form = WipingBuffer.taking(&converted)
        } else {
            form = latin1(of: text).buffer
        }
        compoundForm = form
        return form
    }
}
