// SPDX-License-Identifier: MIT
import Glibc

/// Checks of names, paths and strings against the D-Bus specification, made in Swift before
/// anything reaches libdbus: libdbus aborts the whole process on an invalid one.
enum BusSyntax {
    /// The longest bus, interface, member or error name (bytes).
    static let maximumNameLength = 255
    /// The interface reserved for messages libdbus makes up itself; the bus disconnects a
    /// client that sends with it.
    static let localInterface = "org.freedesktop.DBus.Local"
    /// The object path reserved for messages libdbus makes up itself.
    static let localPath = "/org/freedesktop/DBus/Local"

    /// Throws unless `string` can be a D-Bus string (`s`): no NUL byte.
    ///
    /// A Swift `String` is always valid Unicode, so its UTF-8 is always what libdbus accepts
    /// (noncharacters included); only NUL, which C strings cannot carry, is left to reject.
    static func checkString(_ string: String, what: String = "string") throws {
        // memchr over the contiguous UTF-8 keeps megabyte strings cheap even in debug builds.
        let hasNUL =
            string.utf8.withContiguousStorageIfAvailable { bytes in
                bytes.baseAddress.map { memchr($0, 0, bytes.count) != nil } ?? false
            }
            ?? string.utf8.contains(0)
        if hasNUL {
            throw BusError.invalidArgs("\(what) \(quoted(string)) contains a NUL character")
        }
    }

    /// Throws unless `path` is a valid object path: `/`, or `/`-separated non-empty elements of
    /// `[A-Za-z0-9_]` without a trailing `/`.
    static func checkObjectPath(_ path: String) throws {
        func invalid(_ reason: String) -> BusError {
            BusError.invalidArgs("invalid object path \(quoted(path)): \(reason)")
        }
        let bytes = Array(path.utf8)
        guard bytes.first == UInt8(ascii: "/") else { throw invalid("it must start with \"/\"") }
        if bytes.count == 1 { return }
        guard bytes.last != UInt8(ascii: "/") else { throw invalid("it must not end with \"/\"") }
        var previous = UInt8(ascii: "/")
        for byte in bytes.dropFirst() {
            if byte == UInt8(ascii: "/") {
                guard previous != UInt8(ascii: "/") else { throw invalid("it has an empty element (\"//\")") }
            } else if !isNameCharacter(byte) {
                throw invalid("only A-Z, a-z, 0-9, \"_\" and \"/\" are allowed")
            }
            previous = byte
        }
    }

    /// Throws unless `name` is a valid interface name: two or more `.`-separated elements of
    /// `[A-Za-z0-9_]` that do not start with a digit, at most 255 bytes.
    static func checkInterfaceName(_ name: String, what: String = "interface name") throws {
        try checkDottedName(name, what: what, allowHyphen: false, allowLeadingDigit: false)
    }

    /// Throws unless `name` is a valid error name (the same rules as an interface name).
    static func checkErrorName(_ name: String) throws {
        try checkInterfaceName(name, what: "error name")
    }

    /// Throws unless `name` is a valid member (method, signal or property) name: `[A-Za-z0-9_]`,
    /// not starting with a digit, 1 to 255 bytes.
    static func checkMemberName(_ name: String, what: String = "member name") throws {
        func invalid(_ reason: String) -> BusError {
            BusError.invalidArgs("invalid \(what) \(quoted(name)): \(reason)")
        }
        let bytes = Array(name.utf8)
        guard !bytes.isEmpty else { throw invalid("it is empty") }
        guard bytes.count <= maximumNameLength else { throw invalid("it is longer than 255 bytes") }
        guard !isDigit(bytes[0]) else { throw invalid("it must not start with a digit") }
        guard bytes.allSatisfy(isNameCharacter) else {
            throw invalid("only A-Z, a-z, 0-9 and \"_\" are allowed")
        }
    }

    /// Throws unless `name` is a valid bus name, unique (`:1.42`) or well-known (`com.example.App`).
    static func checkBusName(_ name: String) throws {
        if name.utf8.first == UInt8(ascii: ":") {
            try checkDottedName(
                name, what: "unique bus name", allowHyphen: true, allowLeadingDigit: true, skipFirst: true)
        } else {
            try checkWellKnownBusName(name)
        }
    }

    /// Throws unless `name` is a valid well-known bus name (the kind a connection can own).
    static func checkWellKnownBusName(_ name: String) throws {
        if name.utf8.first == UInt8(ascii: ":") {
            throw BusError.invalidArgs(
                "invalid well-known bus name \(quoted(name)): names starting with \":\" are unique names "
                    + "that the bus assigns")
        }
        try checkDottedName(name, what: "bus name", allowHyphen: true, allowLeadingDigit: false)
    }

    /// Throws unless `name` has two or more non-empty `.`-separated elements of allowed bytes.
    private static func checkDottedName(
        _ name: String, what: String, allowHyphen: Bool, allowLeadingDigit: Bool, skipFirst: Bool = false
    ) throws {
        func invalid(_ reason: String) -> BusError {
            BusError.invalidArgs("invalid \(what) \(quoted(name)): \(reason)")
        }
        let all = Array(name.utf8)
        guard !all.isEmpty else { throw invalid("it is empty") }
        guard all.count <= maximumNameLength else { throw invalid("it is longer than 255 bytes") }
        let bytes = skipFirst ? Array(all.dropFirst()) : all
        let elements = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard elements.count >= 2 else { throw invalid("it needs at least two elements separated by \".\"") }
        for element in elements {
            guard let first = element.first else { throw invalid("it has an empty element") }
            if !allowLeadingDigit && isDigit(first) {
                throw invalid("an element must not start with a digit")
            }
            for byte in element where !(isNameCharacter(byte) || (allowHyphen && byte == UInt8(ascii: "-"))) {
                let allowed = allowHyphen ? "A-Z, a-z, 0-9, \"_\", \"-\"" : "A-Z, a-z, 0-9, \"_\""
                throw invalid("only \(allowed) and \".\" are allowed")
            }
        }
    }

    /// True for `[A-Za-z0-9_]`.
    private static func isNameCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
            return true
        default:
            return false
        }
    }

    /// True for `[0-9]`.
    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    /// `text` in double quotes for an error message, cut to 80 characters, with control
    /// characters (NUL included) escaped so that the message itself is a valid D-Bus string.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for (index, scalar) in text.unicodeScalars.enumerated() {
            if index == 80 {
                result += "…"
                break
            }
            if scalar.value < 0x20 || scalar.value == 0x7f {
                result += "\\u{\(String(scalar.value, radix: 16))}"
            } else if scalar == "\"" || scalar == "\\" {
                result += "\\\(scalar)"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// `text` with NUL characters replaced by U+FFFD, for messages that must be sent anyway.
    static func withoutNUL(_ text: String) -> String {
        guard text.utf8.contains(0) else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.map { $0 == "\0" ? "\u{FFFD}" : $0 }))
    }
}
