// SPDX-License-Identifier: MIT

/// What the layout needs of a font, in the surface's pixels: each popup's font implements it
/// with its own text library (Xft, pango), and `MenuLayout` does the rest once for both.
public protocol MenuMetrics {
    /// The height of a line of text.
    var textHeight: Int { get }
    /// The width `text` takes drawn as one line.
    func width(of text: String) -> Int
    /// The longest prefix of `text`, in whole characters, that takes at most `width` drawn as
    /// one line; it looks at no more of `text` than the width could show, so a line of
    /// megabytes costs what a short one costs.
    func prefix(of text: String, fitting width: Int) -> Substring
}

extension MenuMetrics {
    /// `text` cut to take at most `width`, ending in "…" when cut: the one rule both popups
    /// cut names, rows, prompts and messages by.
    public func cut(_ text: String, to width: Int) -> String {
        guard width > 0 else { return "" }
        let whole = prefix(of: text, fitting: width)
        if whole.endIndex == text.endIndex { return text }
        let room = width - self.width(of: MenuLayout.ellipsis)
        return String(prefix(of: text, fitting: max(0, room))) + MenuLayout.ellipsis
    }
}
