// SPDX-License-Identifier: MIT
internal import CDBus

/// An error that chooses the D-Bus error it becomes when a method handler throws it.
public protocol BusErrorConvertible: Error {
    /// The D-Bus error name, e.g. `com.example.App1.Error.NotFound`.
    var busErrorName: String { get }
    /// The message a person reads.
    var busErrorMessage: String { get }
}

/// The standard D-Bus error names that this module produces.
public enum BusErrorName {
    /// A generic failure.
    public static let failed = "org.freedesktop.DBus.Error.Failed"
    /// Arguments or values that are malformed or of the wrong type.
    public static let invalidArgs = "org.freedesktop.DBus.Error.InvalidArgs"
    /// The object has no such method (or no such interface).
    public static let unknownMethod = "org.freedesktop.DBus.Error.UnknownMethod"
    /// The object has no such interface (used by `org.freedesktop.DBus.Properties`).
    public static let unknownInterface = "org.freedesktop.DBus.Error.UnknownInterface"
    /// The interface has no such property.
    public static let unknownProperty = "org.freedesktop.DBus.Error.UnknownProperty"
    /// The property cannot be set.
    public static let propertyReadOnly = "org.freedesktop.DBus.Error.PropertyReadOnly"
    /// No reply arrived within the timeout.
    public static let noReply = "org.freedesktop.DBus.Error.NoReply"
    /// The connection is closed.
    public static let disconnected = "org.freedesktop.DBus.Error.Disconnected"
    /// A message or array over the protocol's size or nesting limits.
    public static let limitsExceeded = "org.freedesktop.DBus.Error.LimitsExceeded"
    /// libdbus could not allocate memory.
    public static let noMemory = "org.freedesktop.DBus.Error.NoMemory"
    /// A feature this module does not offer, such as Unix file descriptors.
    public static let notSupported = "org.freedesktop.DBus.Error.NotSupported"
}

extension BusError: BusErrorConvertible {
    /// The error's own name.
    public var busErrorName: String { name }
    /// The error's own message.
    public var busErrorMessage: String { message }

    /// `org.freedesktop.DBus.Error.InvalidArgs` with `message`.
    public static func invalidArgs(_ message: String) -> BusError {
        BusError(name: BusErrorName.invalidArgs, message: message)
    }

    /// `org.freedesktop.DBus.Error.Failed` with `message`.
    public static func failed(_ message: String) -> BusError {
        BusError(name: BusErrorName.failed, message: message)
    }

    /// `org.freedesktop.DBus.Error.UnknownMethod` with `message`.
    public static func unknownMethod(_ message: String) -> BusError {
        BusError(name: BusErrorName.unknownMethod, message: message)
    }

    /// `org.freedesktop.DBus.Error.LimitsExceeded` with `message`.
    public static func limitsExceeded(_ message: String) -> BusError {
        BusError(name: BusErrorName.limitsExceeded, message: message)
    }

    /// `org.freedesktop.DBus.Error.NoMemory`, naming what could not be allocated.
    static func noMemory(_ what: String) -> BusError {
        BusError(name: BusErrorName.noMemory, message: "out of memory while \(what)")
    }

    /// The D-Bus error that a method handler's thrown `error` becomes.
    ///
    /// A `BusErrorConvertible` (including `BusError`) keeps its name and message; anything
    /// else is `Failed` with its description. A name that is not a valid error name would make
    /// libdbus abort, so it becomes `Failed` too, keeping the message.
    static func replying(to error: any Error) -> BusError {
        let converted: BusError
        if let convertible = error as? any BusErrorConvertible {
            converted = BusError(name: convertible.busErrorName, message: convertible.busErrorMessage)
        } else {
            converted = BusError.failed(String(describing: error))
        }
        let message = BusSyntax.withoutNUL(converted.message)
        guard (try? BusSyntax.checkErrorName(converted.name)) != nil else {
            return BusError.failed("\(message) (invalid error name \(BusSyntax.quoted(converted.name)))")
        }
        return BusError(name: converted.name, message: message)
    }
}

/// Runs `body` with an initialised C `DBusError` and throws it as a `BusError` when `body`
/// set it; the only place where libdbus errors become Swift errors.
func withBusError<Result>(_ body: (UnsafeMutablePointer<DBusError>) -> Result) throws -> Result {
    var error = DBusError()
    dbus_error_init(&error)
    let result = body(&error)
    if dbus_error_is_set(&error) != 0 {
        let name = error.name.map { String(cString: $0) } ?? BusErrorName.failed
        let message =
            error.message.map { String(cString: $0) } ?? "libdbus reported an error without a message"
        dbus_error_free(&error)
        throw BusError(name: name, message: message)
    }
    return result
}
