// SPDX-License-Identifier: MIT

/// Short quotations of what a caller sent or a file holds, for error messages.
///
/// An error quotes a caller's name, header, operand or line so that a person sees what was
/// wrong; it quotes at most a short prefix, and says how long the rest was, so that a refusal
/// of a 100 MB argument costs as little as the refusal of a short one (a whole quotation once
/// took 3.5 s and 596 MiB more for a 125 MB name).
public enum Quotation {
    /// The most Unicode scalars of a caller's text that a message quotes.
    public static let maxScalars = 64

    /// `text` in double quotes; when it has more than `maxScalars` scalars, its first
    /// `maxScalars` and an ellipsis, followed by how many bytes were left out:
    /// `"aaaa…" (and 1000 bytes more)`.
    ///
    /// Reads at most `maxScalars` scalars of `text`, whatever its length.
    public static func quoted<Text: StringProtocol>(_ text: Text, maxScalars: Int = maxScalars) -> String {
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
