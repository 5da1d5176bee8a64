// SPDX-License-Identifier: MIT

/// Short quotations of a file's text in problem reports, as the daemon's other messages
/// quote what a caller sent (`CliptabCore.Quotation`, which this dependency-free module
/// cannot import): at most `maxScalars` scalars, then how many bytes were left out.
enum ConfigQuotation {
    /// The most Unicode scalars quoted.
    static let maxScalars = 64

    /// `text` in double quotes, or its first `maxScalars` scalars, an ellipsis and
    /// `(and N bytes more)`.
    static func quoted<Text: StringProtocol>(_ text: Text) -> String {
        let total = text.utf8.count
        if total <= maxScalars { return "\"\(text)\"" }
        let scalars = text.unicodeScalars
        var end = scalars.startIndex
        var taken = 0
        while taken < maxScalars && end < scalars.endIndex {
            scalars.formIndex(after: &end)
            taken += 1
        }
        if end == scalars.endIndex { return "\"\(text)\"" }
        let kept = String(String.UnicodeScalarView(scalars[..<end]))
        return "\"\(kept)…\" (and \(total - kept.utf8.count) bytes more)"
    }
}
