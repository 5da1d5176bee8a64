// SPDX-License-Identifier: MIT

/// A decimal number read from a row's whole text, compared exactly (no floating point).
///
/// The accepted text is exactly: an optional `+` or `-`, one or more ASCII digits, and
/// optionally a `.` followed by one or more ASCII digits (`-3`, `2.5`, `+0.50`, `007`).
/// Refused: `.5` and `5.` (the spec asks for digits with an optional fraction, and a
/// sentence's `5.` is rarely meant as a number), exponents, spaces anywhere, other digits
/// than ASCII, `NaN` and infinities. Any length is accepted; comparing costs time linear in
/// the digits. Equal values are equal whatever their spelling: `-0 == 0`, `1.50 == 01.5`.
public struct DecimalText: Comparable, Hashable, Sendable, CustomStringConvertible {
    // Canonical form, so that the synthesized `==` is numeric equality: zero is never
    // negative, the integer digits have no leading zero (zero has none at all) and the
    // fraction digits have no trailing zero. Digits are ASCII values minus `0`.
    private let negative: Bool
    private let integerDigits: [UInt8]
    private let fractionDigits: [UInt8]

    /// Reads `text`; nil unless the whole text is a decimal number as described above.
    public init?(_ text: String) {
        var bytes = text.utf8[...]
        var negative = false
        if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            negative = sign == UInt8(ascii: "-")
            bytes = bytes.dropFirst()
        }
        let integerPart = bytes.prefix { $0 >= 0x30 && $0 <= 0x39 }
        guard !integerPart.isEmpty else { return nil }
        bytes = bytes[integerPart.endIndex...]
        var fractionPart = bytes[bytes.endIndex...]
        if let point = bytes.first {
            guard point == UInt8(ascii: ".") else { return nil }
            fractionPart = bytes.dropFirst()
            guard !fractionPart.isEmpty, fractionPart.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
                return nil
            }
        }
        integerDigits = integerPart.drop { $0 == 0x30 }.map { $0 - 0x30 }
        var fraction = fractionPart.map { $0 - 0x30 }
        while fraction.last == 0 { fraction.removeLast() }
        fractionDigits = fraction
        self.negative = negative && !(integerDigits.isEmpty && fractionDigits.isEmpty)
    }

    /// The canonical spelling: `-1.5` for `-01.50`, `0` for `-0.0`.
    public var description: String {
        var text = negative ? "-" : ""
        text += integerDigits.isEmpty ? "0" : String(decoding: integerDigits.map { $0 + 0x30 }, as: UTF8.self)
        if !fractionDigits.isEmpty {
            text += "." + String(decoding: fractionDigits.map { $0 + 0x30 }, as: UTF8.self)
        }
        return text
    }

    /// Numeric order.
    public static func < (lhs: DecimalText, rhs: DecimalText) -> Bool {
        if lhs.negative != rhs.negative { return lhs.negative }
        return lhs.negative ? magnitudeIsLess(rhs, lhs) : magnitudeIsLess(lhs, rhs)
    }

    private static func magnitudeIsLess(_ lhs: DecimalText, _ rhs: DecimalText) -> Bool {
        // Without leading zeros, more integer digits means larger; with equal lengths the
        // digits compare in order, and then the fractions do (without trailing zeros, a
        // fraction that is a prefix of the other is the smaller).
        if lhs.integerDigits.count != rhs.integerDigits.count {
            return lhs.integerDigits.count < rhs.integerDigits.count
        }
        if lhs.integerDigits != rhs.integerDigits {
            return lhs.integerDigits.lexicographicallyPrecedes(rhs.integerDigits)
        }
        return lhs.fractionDigits.lexicographicallyPrecedes(rhs.fractionDigits)
    }
}
