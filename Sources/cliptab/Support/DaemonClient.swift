// SPDX-License-Identifier: MIT
import CliptabContract
import DBus
import Glibc

/// How to start the daemon, for every "cannot reach it" message.
let startHint =
    "Start cliptabd with 'systemctl --user start cliptabd', or run 'cliptabd' in your desktop session.\n"

/// One connection to the session bus and the calls made to the daemon over it.
///
/// Every call shares one deadline, set when the connection is made: a command never waits
/// longer than its timeout for a hung daemon (or bus), however many calls it makes.
final class DaemonClient {
    /// The bus connection (`watch` reads signals from it).
    let connection: BusConnection
    private let deadline: UInt64
    private let timeoutMilliseconds: Int32

    private init(connection: BusConnection, deadline: UInt64, timeoutMilliseconds: Int32) {
        self.connection = connection
        self.deadline = deadline
        self.timeoutMilliseconds = timeoutMilliseconds
    }

    /// Connects to the session bus (`DBUS_SESSION_BUS_ADDRESS`); throws
    /// `CLIFailure.unreachable` when that fails or takes longer than the timeout.
    static func connect(timeoutMilliseconds: Int32) throws -> DaemonClient {
        let deadline = BusConnection.monotonicMilliseconds() + UInt64(timeoutMilliseconds)
        // libdbus's connect and Hello wait up to 25 s on a bus that accepts the socket but
        // never answers; the watchdog ends the process at our deadline instead.
        ConnectWatchdog.arm(milliseconds: timeoutMilliseconds)
        defer { ConnectWatchdog.disarm() }
        do {
            let connection = try BusConnection.connect()
            return DaemonClient(
                connection: connection, deadline: deadline, timeoutMilliseconds: timeoutMilliseconds)
        } catch let error as BusError {
            throw CLIFailure.unreachable(
                "cliptab: cannot connect to the session bus: \(error.message) (\(error.name))\n" + startHint)
        }
    }

    /// Milliseconds left before the deadline (at least 1, so that a call still gets a reply
    /// that is already there).
    var remainingMilliseconds: Int32 {
        let now = BusConnection.monotonicMilliseconds()
        return now >= deadline ? 1 : Int32(clamping: deadline - now)
    }

    /// Calls `member` of the cliptab interface and returns its reply; error replies are
    /// thrown as `CLIFailure`.
    func call(_ member: String, _ arguments: [BusValue] = []) throws -> Reply {
        try call(member, arguments, interface: CliptabBus.interface)
    }

    /// Calls `member` of `interface` on the daemon's object.
    func call(_ member: String, _ arguments: [BusValue], interface: String) throws -> Reply {
        let reply = try replyMessage(member, arguments, interface: interface)
        do {
            return Reply(member: member, values: try reply.readValues())
        } catch let error as BusError {
            throw classify(error, waited: 0)
        }
    }

    /// Calls `member` of `interface` and returns the reply undecoded, for a reply read
    /// straight into its own type (`GetRows` pages: no `BusValue` per row).
    func replyMessage(_ member: String, _ arguments: [BusValue], interface: String = CliptabBus.interface)
        throws -> BusMessage
    {
        let message = try BusMessage.methodCall(
            destination: CliptabBus.name, path: CliptabBus.path, interface: interface, member: member)
        do {
            try message.append(arguments)
        } catch let error as BusError {
            throw CLIFailure.local("cannot send \(member): \(error.message)")
        }
        let started = BusConnection.monotonicMilliseconds()
        do {
            return try connection.call(message, timeoutMilliseconds: remainingMilliseconds)
        } catch let error as BusError {
            throw classify(error, waited: BusConnection.monotonicMilliseconds() - started)
        }
    }

    /// Sorts a call's error into "the daemon refused" and "the daemon is not there".
    private func classify(_ error: BusError, waited: UInt64) -> CLIFailure {
        let name = error.name
        if name == BusErrorName.noReply {
            // The bus also answers NoReply at once when the daemon exits during the call.
            if waited + 50 >= UInt64(timeoutMilliseconds) || remainingMilliseconds <= 1 {
                return .unreachable(
                    "cliptab: cliptabd did not answer within \(seconds(timeoutMilliseconds)) (\(name)); "
                        + "it may be busy or hung, so a change asked for may still be made.\n"
                        + "Try again with a longer --timeout, or restart it with "
                        + "'systemctl --user restart cliptabd'.\n")
            }
            return .unreachable(
                "cliptab: cliptabd stopped before it answered: \(error.message) (\(name))\n" + startHint)
        }
        if Self.unreachableNames.contains(name) || name.hasPrefix("org.freedesktop.DBus.Error.Spawn.")
            || name.hasPrefix("org.freedesktop.systemd1.")
        {
            return .unreachable("cliptab: cannot reach cliptabd: \(error.message) (\(name))\n" + startHint)
        }
        return .refused(error)
    }

    /// Error names that mean the daemon (or the bus) is not there.
    private static let unreachableNames: Set<String> = [
        "org.freedesktop.DBus.Error.ServiceUnknown",
        "org.freedesktop.DBus.Error.NameHasNoOwner",
        BusErrorName.disconnected,
        "org.freedesktop.DBus.Error.NoServer",
        "org.freedesktop.DBus.Error.NoNetwork",
        "org.freedesktop.DBus.Error.Timeout",
        "org.freedesktop.DBus.Error.TimedOut",
    ]
}

/// "5 s", "0.5 s".
func seconds(_ milliseconds: Int32) -> String {
    let whole = milliseconds / 1000
    let rest = milliseconds % 1000
    guard rest != 0 else { return "\(whole) s" }
    var fraction = String(rest)
    while fraction.count < 3 { fraction = "0" + fraction }
    while fraction.hasSuffix("0") { fraction.removeLast() }
    return "\(whole).\(fraction) s"
}

/// The text `SIGALRM` writes before it ends the process: a constant, since a signal handler
/// may not allocate (and formatting one would cost every call).
private let watchdogMessage: StaticString = """
    cliptab: the session bus did not answer within the timeout (--timeout, default 5 s).
    Start cliptabd with 'systemctl --user start cliptabd', or run 'cliptabd' in your desktop session.

    """

/// A timer that ends the process with status 69 if connecting to the bus hangs.
enum ConnectWatchdog {
    /// Starts the timer.
    static func arm(milliseconds: Int32) {
        signal(SIGALRM) { _ in
            // Only async-signal-safe calls here.
            _ = write(2, watchdogMessage.utf8Start, watchdogMessage.utf8CodeUnitCount)
            _exit(ExitStatus.unavailable)
        }
        var timer = itimerval()
        timer.it_value.tv_sec = Int(milliseconds / 1000)
        timer.it_value.tv_usec = Int(milliseconds % 1000) * 1000
        setitimer(__itimer_which_t(ITIMER_REAL.rawValue), &timer, nil)
    }

    /// Stops the timer.
    static func disarm() {
        var timer = itimerval()
        setitimer(__itimer_which_t(ITIMER_REAL.rawValue), &timer, nil)
    }
}
