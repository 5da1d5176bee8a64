// SPDX-License-Identifier: MIT

/// The grammar of a row name, shared by the daemon (which enforces it) and the CLI (which
/// tells a name from an index, a path, `@Header` or an id by it).
public enum RowName {
    /// The longest name, in UTF-8 bytes.
    public static let maxBytes = 64

    /// True when `name` is 1–64 bytes matching `[A-Za-z_][A-Za-z0-9_.-]*`.
    public static func isValid(_ name: String) -> Bool {
        let bytes = name.utf8
        guard let first = bytes.first, bytes.count <= maxBytes else { return false }
        guard isLetter(first) || first == UInt8(ascii: "_") else { return false }
        return bytes.allSatisfy { byte in
            isLetter(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
        }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
    }
}
