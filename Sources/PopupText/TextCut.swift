// SPDX-License-Identifier: MIT

/// Cutting a line before it is shaped: shaping and measuring cost what the text is long, so
/// a row of megabytes is cut to what the widest line could show before pango sees it.
public enum TextCut {
    /// The first `characters` characters of `text`, and whether anything was cut.
    public static func prefix(_ text: String, characters: Int) -> (text: Substring, cut: Bool) {
        let limit = max(0, characters)
        // Walking `limit` characters costs the prefix only, never the whole text.
        guard let end = text.index(text.startIndex, offsetBy: limit, limitedBy: text.endIndex) else {
            return (text[...], false)
        }
        return (text[..<end], end != text.endIndex)
    }
}
