// SPDX-License-Identifier: MIT

/// Conversions between UTF-8 and the 8-bit encodings of X selection targets.
enum TextEncoding {
    /// The byte that stands for a character the target encoding cannot hold.
    static let fallback = UInt8(ascii: "?")

    /// True when `bytes` are well-formed UTF-8.
    static func isValidUTF8(_ bytes: some Collection<UInt8>) -> Bool {
        String(validating: bytes, as: UTF8.self) != nil
    }

    /// `bytes` with every ill-formed UTF-8 sequence replaced by U+FFFD; valid input is
    /// returned unchanged.
    static func repairingUTF8(_ bytes: [UInt8]) -> [UInt8] {
        if isValidUTF8(bytes) { return bytes }
        return Array(String(decoding: bytes, as: UTF8.self).utf8)
    }

    /// ISO 8859-1 bytes of valid UTF-8 `text`, with `fallback` for characters above U+00FF
    /// (the ICCCM STRING target); `lossless` is false when a fallback was used.
    static func latin1(fromUTF8 text: UnsafeRawBufferPointer) -> (bytes: [UInt8], lossless: Bool) {
        if !text.contains(where: { $0 >= 0x80 }) { return ([UInt8](text), true) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count)
        var lossless = true
        for scalar in String(decoding: text, as: UTF8.self).unicodeScalars {
            if scalar.value <= 0xFF {
                bytes.append(UInt8(scalar.value))
            } else {
                bytes.append(fallback)
                lossless = false
            }
        }
        return (bytes, lossless)
    }

    /// US-ASCII bytes of valid UTF-8 `text`, with `fallback` for every other character
    /// (RFC 2046: charset-less `text/plain` is US-ASCII).
    static func ascii(fromUTF8 text: UnsafeRawBufferPointer) -> [UInt8] {
        if !text.contains(where: { $0 >= 0x80 }) { return [UInt8](text) }
        return String(decoding: text, as: UTF8.self).unicodeScalars.map { scalar in
            scalar.isASCII ? UInt8(scalar.value) : fallback
        }
    }

    /// UTF-8 bytes of ISO 8859-1 `bytes` (each byte is the code point of the same value).
    static func utf8(fromLatin1 bytes: [UInt8]) -> [UInt8] {
        if !bytes.contains(where: { $0 >= 0x80 }) { return bytes }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count + bytes.count / 4)
        for byte in bytes {
            if byte < 0x80 {
                result.append(byte)
            } else {
                result.append(0xC0 | (byte >> 6))
                result.append(0x80 | (byte & 0x3F))
            }
        }
        return result
    }
}
