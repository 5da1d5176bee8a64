// SPDX-License-Identifier: MIT

/// The settings' font, a fontconfig name (`monospace:size=11`, `DejaVu Sans Mono-12`), as the
/// pango description (`monospace 11`) that selects the same family and size.
public enum FontName {
    /// The pango description of `fontconfig`; a size of 11 points when it names none.
    public static func pangoDescription(_ fontconfig: String) -> String {
        var parts = fontconfig.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        var family = parts.isEmpty ? "" : parts.removeFirst()
        var size: String?
        // `Family-12`: the size after the last dash.
        if let dash = family.lastIndex(of: "-"), Double(family[family.index(after: dash)...]) != nil {
            size = String(family[family.index(after: dash)...])
            family = String(family[..<dash])
        }
        for part in parts {
            if part.hasPrefix("size="), Double(part.dropFirst(5)) != nil { size = String(part.dropFirst(5)) }
            if part.hasPrefix("pixelsize="), let pixels = Double(part.dropFirst(10)) {
                // At 96 dpi, 1 point is 4/3 pixels.
                size = String(Int((pixels * 0.75).rounded()))
            }
        }
        if family.isEmpty { family = "monospace" }
        return "\(family) \(size ?? "11")"
    }
}
