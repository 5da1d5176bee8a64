// SPDX-License-Identifier: MIT
import DBus

/// Why a call to cliptabd did not give a usable reply, sorted so that each program can say
/// it in its own words: the daemon refused, it is not there, or it did not answer in time.
public enum ClientFailure: Error {
    /// The session bus could not be reached (no address, a refused socket, a failed Hello).
    case noBus(BusError)
    /// The daemon answered with an error reply.
    case refused(BusError)
    /// Nobody answers for the daemon's name: it is not running, its activation failed, or
    /// the bus went away.
    case gone(BusError)
    /// The daemon went away during the call (the bus answered `NoReply` before the deadline).
    case stopped(BusError)
    /// No answer before the deadline: the daemon may be busy or hung, so a change asked for
    /// may still be made.
    case timedOut(BusError, timeoutMilliseconds: Int32)
    /// The call's arguments could not be written into a message.
    case unsendable(member: String, BusError)
    /// The reply has another shape than the contract gives it (another version of the API).
    case unexpectedReply(member: String, BusValueMismatch)

    /// True when the daemon (or the bus) is not there or does not answer.
    public var isGone: Bool {
        switch self {
        case .noBus, .gone, .stopped, .timedOut: return true
        case .refused, .unsendable, .unexpectedReply: return false
        }
    }

    /// True when the daemon refused because it has no such method (an older API version).
    public var isUnknownMethod: Bool {
        if case .refused(let error) = self { return error.name == BusErrorName.unknownMethod }
        return false
    }

    /// The D-Bus error behind the failure (`Failed` for a reply of the wrong shape).
    public var error: BusError {
        switch self {
        case .noBus(let error), .refused(let error), .gone(let error), .stopped(let error),
            .timedOut(let error, _), .unsendable(_, let error):
            return error
        case .unexpectedReply(let member, _):
            return BusError(
                name: BusErrorName.failed, message: "cliptabd answered \(member) with an unexpected reply")
        }
    }

    /// Sorts the error of a call into refused, gone, stopped and timed out; `waited` is how
    /// long the call waited, `remaining` what was left of the deadline afterwards.
    static func classify(_ error: BusError, waited: UInt64, remaining: Int32, timeoutMilliseconds: Int32)
        -> ClientFailure
    {
        let name = error.name
        if name == BusErrorName.noReply {
            // The bus also answers NoReply at once when the daemon exits during the call.
            if waited + 50 >= UInt64(timeoutMilliseconds) || remaining <= 1 {
                return .timedOut(error, timeoutMilliseconds: timeoutMilliseconds)
            }
            return .stopped(error)
        }
        if goneNames.contains(name) || name.hasPrefix("org.freedesktop.DBus.Error.Spawn.")
            || name.hasPrefix("org.freedesktop.systemd1.")
        {
            return .gone(error)
        }
        return .refused(error)
    }

    /// Error names that mean the daemon (or the bus) is not there.
    private static let goneNames: Set<String> = [
        "org.freedesktop.DBus.Error.ServiceUnknown",
        "org.freedesktop.DBus.Error.NameHasNoOwner",
        BusErrorName.disconnected,
        "org.freedesktop.DBus.Error.NoServer",
        "org.freedesktop.DBus.Error.NoNetwork",
        "org.freedesktop.DBus.Error.Timeout",
        "org.freedesktop.DBus.Error.TimedOut",
    ]
}

/// How to start the daemon, for every "cannot reach it" message of the CLI and the menus.
public let startHint =
    "Start cliptabd with 'systemctl --user start cliptabd', or run 'cliptabd' in your desktop session.\n"
