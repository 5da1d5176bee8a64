// SPDX-License-Identifier: MIT
internal import CDBus
import Glibc

/// Checks of names, paths and strings against the D-Bus specification.
///
/// They run before anything reaches the calls that take them, since libdbus aborts the
/// whole process on an invalid one. The rules are libdbus's own (`dbus_validate_*`); only
/// the messages are made here.
enum BusSyntax {
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

    /// Throws unless `path` is a valid object path (`dbus_validate_path`).
    static func checkObjectPath(_ path: String) throws {
        try validate(path, what: "object path", rule: pathRule, dbus_validate_path)
    }

    /// Throws unless `name` is a valid interface name (`dbus_validate_interface`).
    static func checkInterfaceName(_ name: String, what: String = "interface name") throws {
        try validate(name, what: what, rule: dottedRule, dbus_validate_interface)
    }

    /// Throws unless `name` is a valid error name (`dbus_validate_error_name`).
    static func checkErrorName(_ name: String) throws {
        try validate(name, what: "error name", rule: dottedRule, dbus_validate_error_name)
    }

    /// Throws unless `name` is a valid member (method, signal or property) name
    /// (`dbus_validate_member`).
    static func checkMemberName(_ name: String, what: String = "member name") throws {
        try validate(name, what: what, rule: memberRule, dbus_validate_member)
    }

    /// Throws unless `name` is a valid bus name, unique (`:1.42`) or well-known
    /// (`com.example.App`), as `dbus_validate_bus_name` decides.
    static func checkBusName(_ name: String) throws {
        try validate(name, what: "bus name", rule: busNameRule, dbus_validate_bus_name)
    }

    /// Throws unless `name` is a valid well-known bus name (the kind a connection can own).
    static func checkWellKnownBusName(_ name: String) throws {
        if name.utf8.first == UInt8(ascii: ":") {
            throw BusError.invalidArgs(
                "invalid well-known bus name \(quoted(name)): names starting with \":\" are unique names "
                    + "that the bus assigns")
        }
        try validate(name, what: "bus name", rule: busNameRule, dbus_validate_bus_name)
    }

    /// The rules the messages state (libdbus's own messages say only "not valid").
    private static let pathRule =
        "an object path is \"/\" or \"/\"-separated non-empty elements of A-Z, a-z, 0-9 and \"_\""
    private static let dottedRule =
        "it needs two or more \".\"-separated non-empty elements of A-Z, a-z, 0-9 and \"_\", "
        + "none starting with a digit, at most 255 bytes"
    private static let memberRule = "it needs 1 to 255 of A-Z, a-z, 0-9 and \"_\", not starting with a digit"
    private static let busNameRule =
        "a well-known name needs two or more \".\"-separated non-empty elements of A-Z, a-z, 0-9, \"_\" "
        + "and \"-\", none starting with a digit, at most 255 bytes; a unique name starts with \":\""

    /// Asks libdbus's `validator` (the specification's rules, which libdbus enforces by
    /// aborting) whether `text` is a valid `what`; throws `InvalidArgs` naming it and `rule`
    /// when not.
    private static func validate(
        _ text: String, what: String, rule: String,
        _ validator: (UnsafePointer<CChar>?, UnsafeMutablePointer<DBusError>?) -> dbus_bool_t
    ) throws {
        // A C string ends at a NUL: libdbus would judge only the part before it.
        guard !text.utf8.contains(0) else {
            throw BusError.invalidArgs("invalid \(what) \(quoted(text)): it contains a NUL character")
        }
        var error = DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        guard text.withCString({ validator($0, &error) }) == 0 else { return }
        throw BusError.invalidArgs("invalid \(what) \(quoted(text)): \(rule)")
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
