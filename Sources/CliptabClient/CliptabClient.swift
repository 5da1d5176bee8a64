// SPDX-License-Identifier: MIT
import CliptabContract
import DBus
import Posix

/// The calling side of the contract: one connection to the session bus and the calls made
/// to cliptabd over it, each failure sorted into a `ClientFailure`.
///
/// Every call has a deadline: with `sharedDeadline` one for the whole life of the client, set
/// when it connects (a command never waits longer than its timeout for a hung daemon,
/// however many calls it makes), else one per call (a menu that stays open for minutes).
public final class CliptabClient {
    /// The bus connection (signals are read from it).
    public let connection: BusConnection
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
            connection: connection, timeoutMilliseconds: timeoutMilliseconds,
            deadline: sharedDeadline
                ? MonotonicClock.milliseconds() + UInt64(timeoutMilliseconds) : nil)
    }

    private init(connection: BusConnection, timeoutMilliseconds: Int32, deadline: UInt64?) {
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
            return CliptabClient(
                connection: try BusConnection.connect(address: address, waitingForHello: false),
                timeoutMilliseconds: timeoutMilliseconds, deadline: deadline)
        } catch let error as BusError {
            throw .noBus(error)
        } catch {
            throw .noBus(BusError(name: BusErrorName.failed, message: "\(error)"))
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
            return try connection.call(message, timeoutMilliseconds: remainingMilliseconds)
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
        var outcomes: [Result<BusMessage, BusError>?] = Array(repeating: nil, count: calls.count)
        var pending: [BusPendingCall] = []
        let started = MonotonicClock.milliseconds()
        // One deadline for the batch: each call waits only for what is left of it.
        let deadline = started + UInt64(max(remainingMilliseconds, 1))
        for (index, call) in calls.enumerated() {
            do {
                let message = try Self.message(call.member, call.arguments)
                pending.append(
                    try connection.call(message, timeoutMilliseconds: remainingMilliseconds) {
                        outcomes[index] = $0
                    })
            } catch let error as BusError {
                for sent in pending { sent.cancel() }
                throw .unsendable(member: call.member, error)
            } catch {
                for sent in pending { sent.cancel() }
                throw .unsendable(
                    member: call.member, BusError(name: BusErrorName.failed, message: "\(error)"))
            }
        }
        connection.flush()
        for (index, call) in pending.enumerated() where !call.wait(until: deadline) {
            call.cancel()
            outcomes[index] = .failure(
                BusError(name: BusErrorName.noReply, message: "no reply within the timeout"))
        }
        let waited = MonotonicClock.milliseconds() - started
        return outcomes.map { outcome in
            switch outcome {
            case .success(let message)?: return .success(message)
            case .failure(let error)?: return .failure(classify(error, waited: waited))
            case nil:
                // The connection died before libdbus could hand the call its outcome.
                return .failure(
                    classify(
                        BusError(name: BusErrorName.disconnected, message: "the bus connection closed"),
                        waited: waited))
            }
        }
    }

    private func classify(_ error: BusError, waited: UInt64) -> ClientFailure {
        ClientFailure.classify(
            error, waited: waited, remaining: deadline == nil ? timeoutMilliseconds : remainingMilliseconds,
            timeoutMilliseconds: timeoutMilliseconds)
    }

    // MARK: - The daemon-gone watcher

    /// Asks the bus to say when cliptabd's name loses its owner, so that a client left open
    /// notices the daemon going away before its next call would: `isGone` turns true as the
    /// signal is dispatched (or at once when the daemon is already gone).
    public func watchDaemon() {
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
