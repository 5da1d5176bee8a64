// SPDX-License-Identifier: MIT
internal import CDBus

/// The well-known names a connection asks the bus for.
extension BusConnection {
    /// Asks the bus for the well-known `name` (a blocking round trip).
    public func requestName(
        _ name: String, replaceExisting: Bool = false, allowReplacement: Bool = false, doNotQueue: Bool = true
    ) throws -> NameRequestResult {
        try BusSyntax.checkWellKnownBusName(name)
        var flags: UInt32 = 0
        if allowReplacement { flags |= UInt32(DBUS_NAME_FLAG_ALLOW_REPLACEMENT) }
        if replaceExisting { flags |= UInt32(DBUS_NAME_FLAG_REPLACE_EXISTING) }
        if doNotQueue { flags |= UInt32(DBUS_NAME_FLAG_DO_NOT_QUEUE) }
        let result = try withBusError { error in
            withUnsafeHandle { dbus_bus_request_name($0, name, flags, error) }
        }
        switch result {
        case DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER: return .primaryOwner
        case DBUS_REQUEST_NAME_REPLY_IN_QUEUE: return .inQueue
        case DBUS_REQUEST_NAME_REPLY_EXISTS: return .exists
        case DBUS_REQUEST_NAME_REPLY_ALREADY_OWNER: return .alreadyOwner
        default:
            throw BusError.failed("the bus answered RequestName(\(name)) with the unknown code \(result)")
        }
    }

    /// Gives the well-known `name` back to the bus (a blocking round trip).
    @discardableResult
    public func releaseName(_ name: String) throws -> NameReleaseResult {
        try BusSyntax.checkWellKnownBusName(name)
        let result = try withBusError { error in withUnsafeHandle { dbus_bus_release_name($0, name, error) } }
        switch result {
        case DBUS_RELEASE_NAME_REPLY_RELEASED: return .released
        case DBUS_RELEASE_NAME_REPLY_NON_EXISTENT: return .nonExistent
        case DBUS_RELEASE_NAME_REPLY_NOT_OWNER: return .notOwner
        default:
            throw BusError.failed("the bus answered ReleaseName(\(name)) with the unknown code \(result)")
        }
    }
}
