// SPDX-License-Identifier: MIT
import CliptabContract
import DBus
import Posix

/// The calling side of the contract: one connection to the session bus and the calls made
/// to cliptabd over it, each failure sorted into a `ClientFailure`.
///
/// A client that reads signals (the menus, `cliptab watch`) holds a full `BusConnection`; one
/// that only calls (the CLI's other commands) may hold a `BusCallLink`, which reaches the
/// daemon in one round trip where libdbus takes three.
///
/// Every call has a deadline: with `sharedDeadline` one for the whole life of the client, set
/// when it connects (a command never waits longer than its timeout for a hung daemon,
/// however many calls it makes), else one per call (a menu that stays open for minutes).
public final class CliptabClient {
    /// The bus connection, which signals are read from; nil for a client made by
    /// `connectForCalls` over a `BusCallLink`.
    public let connection: BusConnection?
    /// What carries the calls: `connection`, or the link.
    private let caller: any BusCaller
    /// The timeout: of the whole client with a shared deadline, else of each call.
    public let timeoutMilliseconds: Int32
    /// The end of the shared deadline (`CLOCK_MONOTONIC` milliseconds), nil for one per call.
    private let deadline: UInt64?
    /// True once the bus said that cliptabd's name lost its owner, or the bus went away
    /// (after `watchDaemon()`).
    public private(set) var isGone = false

    /// A client on the open `connection`; a shared deadline starts now.
    public convenience init(connection: BusConnection, timeoutMilliseconds: Int32, sharedDeadline: Bool) {
        self.init(
            caller: connection, connection: connection, timeoutMilliseconds: timeoutMilliseconds,
            deadline: sharedDeadline
                ? MonotonicClock.milliseconds() + UInt64(timeoutMilliseconds) : nil)
    }

    private init(
        caller: any BusCaller, connection: BusConnection?, timeoutMilliseconds: Int32, deadline: UInt64?
    ) {
        self.caller = caller
        self.connection = connection
        self.timeoutMilliseconds = timeoutMilliseconds
        self.deadline = deadline
    }

    /// Connects to the bus at `address` (nil: the session bus of `DBUS_SESSION_BUS_ADDRESS`).
    ///
    /// Throws `ClientFailure.noBus` when that fails. A shared deadline starts before the
    /// connection, which itself takes time.
    public static func connect(address: String? = nil, timeoutMilliseconds: Int32, sharedDeadline: Bool)
        throws(ClientFailure) -> CliptabClient
    {
        let deadline =
            sharedDeadline ? MonotonicClock.milliseconds() + UInt64(timeoutMilliseconds) : nil
        do {
            let connection = try BusConnection.connect(address: address, waitingForHello: false)
            return CliptabClient(
                caller: connection, connection: connection, timeoutMilliseconds: timeoutMilliseconds,
                deadline: deadline)
        } catch let error as BusError {
            throw .noBus(error)
        } catch {
            throw .noBus(BusError(name: BusErrorName.failed, message: "\(error)"))
        }
    }

    /// Connects for a process that only calls and reads no signals (`connection` is then
    /// nil) over a `BusCallLink`, which sends its authentication, `Hello` and first call in
    /// one write; nil where the bus is not a Unix socket the link reaches (use `connect`).
    ///
    /// The link is only connected here: a bus that does not answer it fails the first call,
    /// as `ClientFailure.noBus`, within the call's deadline.
    public static func connectForCalls(
        address: String? = nil, timeoutMilliseconds: Int32, sharedDeadline: Bool
    ) throws(ClientFailure) -> CliptabClient? {
        let deadline =
            sharedDeadline ? MonotonicClock.milliseconds() + UInt64(timeoutMilliseconds) : nil
        let link: BusCallLink?
        do {
            link = try BusCallLink.open(address: address)
        } catch let error as BusError {
            throw .noBus(error)
        } catch {
            throw .noBus(BusError(name: BusErrorName.failed, message: "\(error)"))
        }
        return link.map {
            CliptabClient(
                caller: $0, connection: nil, timeoutMilliseconds: timeoutMilliseconds, deadline: deadline)
        }
    }

    /// Milliseconds the next call may wait: what is left of the shared deadline (at least 1,
    /// so that a call still gets a reply that is already there), or the whole timeout.
    public var remainingMilliseconds: Int32 {
        guard let deadline else { return timeoutMilliseconds }
        let now = MonotonicClock.milliseconds()
        return now >= deadline ? 1 : Int32(clamping: deadline - now)
    }

    /// A method call of `interface` (the cliptab interface by default) to the daemon's
    /// object, carrying `arguments`.
    public static func message(
        _ member: String, _ arguments: [BusValue] = [], interface: String = CliptabBus.interface
    ) throws -> BusMessage {
        let message = try BusMessage.methodCall(
            destination: CliptabBus.name, path: CliptabBus.path, interface: interface, member: member)
        try message.append(arguments)
        return message
    }

    /// Calls `member` on `connection`, which a caller holds itself (the tests, the
    /// benchmarks), and waits at most `timeout` milliseconds (generous by default: a loaded
    /// test machine) for its values; error replies are thrown as they came, as `BusError`.
    @discardableResult
    public static func call(
        _ connection: BusConnection, _ member: String, _ arguments: [BusValue] = [], timeout: Int32 = 30_000
    ) throws -> [BusValue] {
        try connection.call(message(member, arguments), timeoutMilliseconds: timeout).readValues()
    }

    /// Calls `member` of `interface` and returns its reply's values.
    @discardableResult
    public func call(_ member: String, _ arguments: [BusValue] = [], interface: String = CliptabBus.interface)
        throws(ClientFailure) -> DaemonReply
    {
        let reply = try replyMessage(member, arguments, interface: interface)
        do {
            return DaemonReply(member: member, values: try reply.readValues())
        } catch let error as BusError {
            throw classify(error, waited: 0)
        } catch {
            throw classify(BusError(name: BusErrorName.failed, message: "\(error)"), waited: 0)
        }
    }

    /// Calls `member` of `interface` and returns the reply undecoded, for a reply read
    /// straight into its own type (`GetRows` pages: no `BusValue` per row).
    public func replyMessage(
        _ member: String, _ arguments: [BusValue], interface: String = CliptabBus.interface
    )
        throws(ClientFailure) -> BusMessage
    {
        let message: BusMessage
        do {
            message = try Self.message(member, arguments, interface: interface)
        } catch let error as BusError {
            throw .unsendable(member: member, error)
        } catch {
            throw .unsendable(member: member, BusError(name: BusErrorName.failed, message: "\(error)"))
        }
        let started = MonotonicClock.milliseconds()
        do {
            return try caller.call(message, timeoutMilliseconds: remainingMilliseconds)
        } catch let error as BusError {
            throw classify(error, waited: MonotonicClock.milliseconds() - started)
        } catch {
            throw .refused(BusError(name: BusErrorName.failed, message: "\(error)"))
        }
    }

    /// Sends every call of `calls` (member and arguments, to the cliptab interface) before
    /// waiting for the first reply, so that they cost one round trip instead of one each;
    /// returns each call's reply undecoded, or its failure, in the order of `calls`.
    ///
    /// Throws only when a call cannot be sent at all.
    public func replyMessages(_ calls: [(member: String, arguments: [BusValue])]) throws(ClientFailure)
        -> [Result<BusMessage, ClientFailure>]
    {
        var messages: [BusMessage] = []
        for call in calls {
            do {
                messages.append(try Self.message(call.member, call.arguments))
            } catch let error as BusError {
                throw .unsendable(member: call.member, error)
            } catch {
                throw .unsendable(
                    member: call.member, BusError(name: BusErrorName.failed, message: "\(error)"))
            }
        }
        let started = MonotonicClock.milliseconds()
        let outcomes: [Result<BusMessage, BusError>]
        do {
            // One deadline for the batch: what is left of the client's.
            outcomes = try caller.callAll(messages, timeoutMilliseconds: max(remainingMilliseconds, 1))
        } catch let error as BusError {
            throw .unsendable(member: calls.map(\.member).joined(separator: ", "), error)
        } catch {
            throw .unsendable(
                member: calls.map(\.member).joined(separator: ", "),
                BusError(name: BusErrorName.failed, message: "\(error)"))
        }
        let waited = MonotonicClock.milliseconds() - started
        return outcomes.map { outcome in outcome.mapError { classify($0, waited: waited) } }
    }

    /// Sorts a call's error; one that came before the bus accepted the link failed to reach
    /// the bus.
    private func classify(_ error: BusError, waited: UInt64) -> ClientFailure {
        guard caller.isAccepted else { return .noBus(error) }
        return ClientFailure.classify(
            error, waited: waited, remaining: deadline == nil ? timeoutMilliseconds : remainingMilliseconds,
            timeoutMilliseconds: timeoutMilliseconds)
    }

    // MARK: - The daemon-gone watcher

    /// Asks the bus to say when cliptabd's name loses its owner, so that a client left open
    /// notices the daemon going away before its next call would: `isGone` turns true as the
    /// signal is dispatched (or at once when the daemon is already gone).
    ///
    /// A client without signals (`connectForCalls`) has nothing to watch with: it learns of
    /// the daemon's going at its next call.
    public func watchDaemon() {
        guard let connection else { return }
        let rule =
            "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',"
            + "member='NameOwnerChanged',arg0='\(CliptabBus.name)'"
        connection.addSignalHandler { [weak self] message in
            if message.member == "Disconnected" {
                self?.isGone = true
            } else if message.member == "NameOwnerChanged", let values = try? message.readValues(),
                values.count == 3, values[2] == .string("")
            {
                self?.isGone = true
            }
        }
        try? connection.addMatch(rule)
        // The daemon may have gone before the rule was in place.
        if let message = try? BusMessage.methodCall(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
            interface: "org.freedesktop.DBus", member: "NameHasOwner"),
            (try? message.append([.string(CliptabBus.name)])) != nil,
            let reply = try? connection.call(message, timeoutMilliseconds: remainingMilliseconds)
                .readValues(),
            reply == [.boolean(false)]
        {
            isGone = true
        }
    }
}
