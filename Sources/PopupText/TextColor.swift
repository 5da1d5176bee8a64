// SPDX-License-Identifier: MIT

/// A colour of the settings (`#rrggbb`), as cairo's components.
public struct TextColor: Equatable, Sendable {
    /// Red, green and blue from 0 to 1.
    public let red: Double, green: Double, blue: Double

    /// The colour `#rrggbb` (or `rrggbb`); nil for anything else.
    public init?(_ text: String) {
        var digits = Substring(text)
        if digits.hasPrefix("#") { digits = digits.dropFirst() }
        guard digits.count == 6, let value = UInt32(digits, radix: 16) else { return nil }
        red = Double((value >> 16) & 0xff) / 255
        green = Double((value >> 8) & 0xff) / 255
        blue = Double(value & 0xff) / 255
    }
}
