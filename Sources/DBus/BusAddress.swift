// SPDX-License-Identifier: MIT
import Glibc

/// `address`, or when nil the session bus's (`DBUS_SESSION_BUS_ADDRESS`): the one reading of
/// that variable for both kinds of connection.
func busAddress(_ address: String?) throws -> String {
    let resolved: String
    if let address {
        resolved = address
    } else {
        guard let variable = getenv("DBUS_SESSION_BUS_ADDRESS"), variable.pointee != 0 else {
            throw BusError(
                name: "org.freedesktop.DBus.Error.BadAddress",
                message: "DBUS_SESSION_BUS_ADDRESS is not set, so the session bus cannot be found "
                    + "(run inside a desktop session, or set it to the bus address)")
        }
        resolved = String(cString: variable)
    }
    try BusSyntax.checkString(resolved, what: "bus address")
    return resolved
}
