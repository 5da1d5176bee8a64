// SPDX-License-Identifier: MIT
import DBus
import Glibc

/// Shows one message through `org.freedesktop.Notifications` on the session bus.
///
/// A notification is a courtesy next to standard error, never a reason to wait: the call
/// does not start a notification service (no D-Bus activation), so without one the bus
/// answers `ServiceUnknown` at once, and a server that does not answer is given 1 s.
enum DesktopNotifier {
    /// The notification service's well-known name.
    static let serviceName = "org.freedesktop.Notifications"
    /// Its object.
    static let path = "/org/freedesktop/Notifications"
    /// The longest wait for its answer, in milliseconds.
    static let timeoutMilliseconds: Int32 = 1000

    /// How much a notification asks for attention (the specification's `urgency` hint).
    enum Urgency: UInt8 {
        /// A success.
        case low = 0
        /// A failure: shown until dismissed by servers that honour it.
        case critical = 2
    }

    /// Sends the notification; true when the service accepted it.
    ///
    /// Goes over `connection`, or over a new connection when nil. Never throws: the caller
    /// has already said it on stderr.
    @discardableResult
    static func show(summary: String, body: String, urgency: Urgency, over connection: BusConnection?) -> Bool
    {
        guard let bus = connection ?? connect() else { return false }
        do {
            let message = try BusMessage.methodCall(
                destination: serviceName, path: path, interface: serviceName, member: "Notify")
            try message.setAutoStart(false)
            try message.append([
                .string("cliptab"),  // app_name
                .uint32(0),  // replaces_id: a new notification
                .string(""),  // app_icon
                .string(summary),
                .string(escaped(body)),
                .array(elementSignature: "s", []),  // actions
                .dictionary(
                    keySignature: "s", valueSignature: "v",
                    [(.string("urgency"), .variant(.byte(urgency.rawValue)))]),
                .int32(-1),  // expire_timeout: the server's default
            ])
            _ = try bus.call(message, timeoutMilliseconds: timeoutMilliseconds)
            return true
        } catch {
            return false
        }
    }

    /// A connection of its own, only when a session bus is named: a failure to reach the bus
    /// is what is being reported, and waiting on it again would only delay the exit.
    private static func connect() -> BusConnection? {
        guard let address = getenv("DBUS_SESSION_BUS_ADDRESS"), address.pointee != 0 else { return nil }
        ConnectWatchdog.arm(milliseconds: timeoutMilliseconds)
        defer { ConnectWatchdog.disarm() }
        return try? BusConnection.connect()
    }

    /// `text` with the body markup's special characters escaped, so that servers that
    /// read the body as markup show it as written.
    static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            default: result.append(character)
            }
        }
        return result
    }
}
