// SPDX-License-Identifier: MIT
import CliptabCore

/// The books both selection backends keep besides their connection.
///
/// Their ownerships (the policy's stamps beside the protocol's own `Token`: X11's server
/// time, Wayland's ownership token), the events they report to the service, and when a lost
/// connection is tried again, with the log lines and the error that say so. Time comes from
/// the clock passed at `init`, so a virtual clock drives the retries.
///
/// The wait after a loss doubles for each loss that follows a connection that did not last a
/// minute, up to a minute: a compositor may drop every clipboard manager while one selection
/// is offered (sway 1.7 does so for a selection of 5,000 types, whose offer overflows each
/// client's buffer), and each new connection is dropped again as long as that owner lives.
public final class SelectionBookkeeping<Token: Equatable> {
    /// "X" or "Wayland", for messages.
    private let kind: String
    /// The display's name, for messages.
    private let display: String
    private let clock: () -> UInt64
    /// True when a clipboard call may reconnect at once even after a loss (X11: a display
    /// back is usable at once); false keeps to the schedule, so that calls cannot undo the
    /// back-off from a compositor that keeps dropping the connection (Wayland).
    private let callsRetryAfterLoss: Bool
    /// The first wait after a loss, in milliseconds.
    private let base: UInt64
    /// The losses (and failed attempts after them) in a row; 0 before the first.
    private var losses = 0
    private var lastLoss: (at: UInt64, reason: String)?
    private var connectedAt: UInt64?
    private var owned: [ClipboardSelection: (stamp: OwnershipStamp, token: Token)] = [:]
    private var lastStamp: UInt64 = 0
    private var events: [SelectionEvent] = []
    /// When the next connection attempt is due.
    public private(set) var nextAttempt: UInt64 = 0
    /// Why the last attempt failed or the connection was lost; empty after a connection.
    public private(set) var lastError = ""

    /// Keeps the books of the `kind` ("X", "Wayland") backend of `display`, retrying after
    /// `reconnectMilliseconds` (backing off while losses follow short connections), on
    /// `clock` (monotonic milliseconds).
    public init(
        kind: String, display: String, reconnectMilliseconds: Int, callsRetryAfterLoss: Bool,
        clock: @escaping () -> UInt64
    ) {
        self.kind = kind
        self.display = display
        self.callsRetryAfterLoss = callsRetryAfterLoss
        self.clock = clock
        base = UInt64(max(reconnectMilliseconds, 1))
    }

    /// The clock's time.
    public var now: UInt64 { clock() }

    // MARK: - Ownerships

    /// Notes a new ownership of `selection` under the protocol's `token`; returns its stamp.
    public func owned(_ selection: ClipboardSelection, token: Token) -> OwnershipStamp {
        lastStamp += 1
        let stamp = OwnershipStamp(rawValue: lastStamp)
        owned[selection] = (stamp, token)
        return stamp
    }

    /// The current ownership of `selection` as the books have it.
    public func ownership(_ selection: ClipboardSelection) -> (stamp: OwnershipStamp, token: Token)? {
        owned[selection]
    }

    /// Forgets the ownership `stamp` of `selection` if it is the current one; returns its token.
    public func release(_ selection: ClipboardSelection, _ stamp: OwnershipStamp) -> Token? {
        guard let ownership = owned[selection], ownership.stamp == stamp else { return nil }
        owned[selection] = nil
        return ownership.token
    }

    /// Ends the ownership of `selection` (only the one under `token`, when given) and reports it.
    public func lost(_ selection: ClipboardSelection, token: Token? = nil) {
        guard let ownership = owned[selection], token == nil || ownership.token == token else { return }
        owned[selection] = nil
        events.append(.lost(selection, ownership.stamp))
    }

    /// Reports a read of our ownership of `selection` (only the one under `token`, when given).
    public func served(
        _ selection: ClipboardSelection, token: Token? = nil, reader: UInt64?, textDelivered: Bool,
        origin: ReadOrigin? = nil
    ) {
        guard let ownership = owned[selection], token == nil || ownership.token == token else { return }
        events.append(
            .served(selection, ownership.stamp, reader: reader, textDelivered: textDelivered, origin: origin))
    }

    /// True while events wait for `takeEvents()`.
    public var hasEvents: Bool { !events.isEmpty }

    /// What happened since the last call, in order.
    public func takeEvents() -> [SelectionEvent] {
        defer { events = [] }
        return events
    }

    // MARK: - The connection

    /// The live `connection`, or a new one from `connect` when there is none and an attempt
    /// is due (`force`: a clipboard call); a connection `broken` names a reason for is
    /// dropped first (never touched again), every ownership ending with it.
    public func live<Connection>(
        _ connection: inout Connection?, force: Bool, broken: (Connection) -> String?,
        connect: () throws -> Connection
    ) -> Connection? {
        if let current = connection {
            guard let reason = broken(current) else { return current }
            connection = nil
            connectionLost(reason)
        }
        guard mayConnect(force: force) else { return nil }
        do {
            connection = try connect()
            connected()
        } catch {
            connectFailed("\(error)")
        }
        return connection
    }

    /// True when a connection may be tried now (`force`: a clipboard call, which tries at
    /// once unless a loss made it wait for the schedule); sets the next attempt's time.
    package func mayConnect(force: Bool) -> Bool {
        let now = clock()
        guard (force && (callsRetryAfterLoss || losses == 0)) || now >= nextAttempt else { return false }
        nextAttempt = now + base
        return true
    }

    /// Notes a connection made, logging a reconnection.
    package func connected() {
        let now = clock()
        if let loss = lastLoss {
            Log.line(
                "clipboard: reconnected to the \(kind) display \(display), \(seconds(now - loss.at)) s after "
                    + "losing the connection (\(loss.reason))")
        }
        connectedAt = now
        lastError = ""
    }

    /// Notes a failed attempt; after a loss it counts as another one in a row.
    package func connectFailed(_ error: String) {
        lastError = error
        if losses > 0 { scheduleReconnect(what: "could not reconnect to") }
    }

    /// Notes the loss of the connection for `reason` (empty: unknown): every ownership ends
    /// with it, and the next attempt is scheduled and logged.
    package func connectionLost(_ reason: String) {
        lastError = reason.isEmpty ? "the connection failed" : reason
        scheduleReconnect(what: "lost the connection to")
        for selection in ClipboardSelection.allCases { lost(selection) }
    }

    /// Why there is no connection, as a `ClipboardUnavailable` a person can act on.
    public func unavailable() -> CliptabError {
        let now = clock()
        if let loss = lastLoss {
            let next = nextAttempt > now ? seconds(nextAttempt - now, roundingUp: true) : 0
            let run = losses > 1 ? ", \(losses) times in a row" : ""
            return CliptabError(
                .clipboardUnavailable,
                "the \(kind) connection to \(display) was lost \(seconds(now - loss.at)) s ago\(run) "
                    + "(\(loss.reason)); reconnecting in \(next) s")
        }
        let reason = lastError.isEmpty ? "the connection was lost" : lastError
        return CliptabError(
            .clipboardUnavailable, "the \(kind) display \(display) is not reachable: \(reason)")
    }

    private func scheduleReconnect(what: String) {
        let now = clock()
        if let connectedAt, now >= connectedAt + 60_000 { losses = 0 }
        connectedAt = nil
        losses += 1
        lastLoss = (now, lastError)
        let delay = min(base << UInt64(min(losses - 1, 16)), 60_000)
        nextAttempt = now + delay
        let run = losses > 1 ? " (\(losses) times in a row)" : ""
        Log.line(
            "clipboard: \(what) the \(kind) display \(display)\(run): \(lastError); "
                + "reconnecting in \(seconds(delay, roundingUp: true)) s",
            level: .warning)
    }

    /// Whole seconds of `milliseconds`, for messages.
    private func seconds(_ milliseconds: UInt64, roundingUp: Bool = false) -> UInt64 {
        (milliseconds + (roundingUp ? 999 : 0)) / 1000
    }
}
