// SPDX-License-Identifier: MIT

/// A colour of the `[menu]` settings, read once for both popups: `#rrggbb` (and X's other
/// hexadecimal forms, `#rgb`, `#rrrgggbbb`, `#rrrrggggbbbb`, `rgb:r/g/b`) or an X colour
/// name (`navy`, `light blue`, `gray50`; case and spaces ignored, as the X server does).
public struct MenuColor: Equatable, Sendable {
    /// Red, green and blue from 0 to 255.
    public let red: UInt8, green: UInt8, blue: UInt8

    /// The colour `0xrrggbb`.
    public init(_ rgb: UInt32) {
        red = UInt8((rgb >> 16) & 0xff)
        green = UInt8((rgb >> 8) & 0xff)
        blue = UInt8(rgb & 0xff)
    }

    /// The colour `text` names; nil for anything that is not a colour.
    public init?(parsing text: String) {
        let trimmed = text.lowercased().filter { $0 != " " }
        guard let rgb = Self.hexadecimal(trimmed) ?? Self.rgbForm(trimmed) ?? Self.named(trimmed) else {
            return nil
        }
        self.init(rgb)
    }

    /// The setting's form of the colour, `#rrggbb`.
    public var hexadecimal: String {
        let digits = String((UInt32(red) << 16) | (UInt32(green) << 8) | UInt32(blue), radix: 16)
        return "#" + String(repeating: "0", count: 6 - digits.count) + digits
    }

    /// The colour of `#` and 3, 6, 9 or 12 hexadecimal digits.
    ///
    /// As in X, each component's digits are its most significant ones: `#fff` is `#f0f0f0`.
    private static func hexadecimal(_ text: String) -> UInt32? {
        guard text.hasPrefix("#"), [3, 6, 9, 12].contains(text.count - 1) else { return nil }
        let digits = Array(text.dropFirst())
        let size = digits.count / 3
        var rgb: UInt32 = 0
        for component in 0..<3 {
            let part = String(digits[component * size..<(component + 1) * size])
            guard let value = UInt32(part, radix: 16) else { return nil }
            // The top 8 bits of a component of `size` digits.
            rgb = rgb << 8 | (size == 1 ? value << 4 : value >> (4 * (size - 2)))
        }
        return rgb
    }

    /// `rgb:r/g/b` with 1 to 4 hexadecimal digits a component, each scaled to its range
    /// (`rgb:f/f/f` is white), as in X.
    private static func rgbForm(_ text: String) -> UInt32? {
        guard text.hasPrefix("rgb:") else { return nil }
        let parts = text.dropFirst(4).split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        var rgb: UInt32 = 0
        for part in parts {
            guard (1...4).contains(part.count), let value = UInt32(part, radix: 16) else { return nil }
            let maximum = (UInt32(1) << (4 * UInt32(part.count))) - 1
            rgb = rgb << 8 | (value * 255 + maximum / 2) / maximum
        }
        return rgb
    }

    /// The X colour name `text` (lower case, no spaces).
    private static func named(_ text: String) -> UInt32? {
        // gray0 … gray100 (and grey) are X's ramp of 101 steps, rounded as its rgb.txt has them.
        for prefix in ["gray", "grey"] where text.hasPrefix(prefix) {
            if let step = Int(text.dropFirst(prefix.count)), (0...100).contains(step),
                text.count - prefix.count <= 3
            {
                let level = UInt32(Double(step) * 2.55 + 0.5)
                return level << 16 | level << 8 | level
            }
        }
        return MenuColorNames.table[text]
    }
}
