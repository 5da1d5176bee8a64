// SPDX-License-Identifier: MIT

/// A POSIX bracket class such as `[:alpha:]`.
enum RegexCharacterClass: String, CaseIterable, Sendable {
    case alpha, digit, alnum, upper, lower, space, blank, punct, print, graph, cntrl, xdigit

    // ASCII follows the C locale exactly; beyond ASCII the classes follow the Unicode
    // properties that glibc's UTF-8 locales also derive theirs from.
    func contains(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 128 {
            let byte = UInt8(value)
            switch self {
            case .alpha: return isASCIILetter(byte)
            case .digit: return isASCIIDigit(byte)
            case .alnum: return isASCIILetter(byte) || isASCIIDigit(byte)
            case .upper: return byte >= 0x41 && byte <= 0x5A
            case .lower: return byte >= 0x61 && byte <= 0x7A
            case .space: return byte == 0x20 || (byte >= 0x09 && byte <= 0x0D)
            case .blank: return byte == 0x20 || byte == 0x09
            case .punct: return byte > 0x20 && byte < 0x7F && !isASCIILetter(byte) && !isASCIIDigit(byte)
            case .print: return byte >= 0x20 && byte < 0x7F
            case .graph: return byte > 0x20 && byte < 0x7F
            case .cntrl: return byte < 0x20 || byte == 0x7F
            case .xdigit:
                return isASCIIDigit(byte) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x66)
            }
        }
        let properties = scalar.properties
        let category = properties.generalCategory
        switch self {
        case .alpha: return properties.isAlphabetic
        case .digit, .xdigit: return false
        case .alnum: return properties.isAlphabetic || category == .decimalNumber
        case .upper: return properties.isUppercase
        case .lower: return properties.isLowercase
        case .space: return properties.isWhitespace
        case .blank: return category == .spaceSeparator
        case .punct:
            switch category {
            case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
                .initialPunctuation, .finalPunctuation, .otherPunctuation, .mathSymbol,
                .currencySymbol, .modifierSymbol, .otherSymbol:
                return true
            default: return false
            }
        case .print, .graph:
            switch category {
            case .control, .surrogate, .unassigned, .lineSeparator, .paragraphSeparator: return false
            case .spaceSeparator: return self == .print
            default: return true
            }
        case .cntrl:
            return category == .control || category == .lineSeparator || category == .paragraphSeparator
        }
    }
}

/// True for the ASCII letters A-Z and a-z.
func isASCIILetter(_ byte: UInt8) -> Bool {
    (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
}

/// True for the ASCII digits 0-9.
func isASCIIDigit(_ byte: UInt8) -> Bool {
    byte >= 0x30 && byte <= 0x39
}
