// SPDX-License-Identifier: MIT
import Glibc
import Posix

/// Owns and reads the X selections for a single-threaded program driven by one `poll()`
/// loop: it owns a `Display*` connection and an unmapped window of its own.
///
/// Loop contract: call `processEvents(now:)` before every `poll()` (Xlib may hold queued
/// events that `poll` cannot see) and whenever `fileDescriptor` is readable; wait at most
/// until `nextDeadline()`. Once `isBroken` is true, stop polling the descriptor.
/// Read completions run inside `processEvents(now:)`, inside `handOverToClipboardManager`
/// (which drives the loop itself while it waits), or inside `readMarkedText` (and
/// `readText`) when it can answer at once (our own selection, a lost display). Losses and
/// answered requests wait for the owner in `takeNotices()`.
/// Times are `CLOCK_MONOTONIC` milliseconds (as from `Posix.MonotonicClock.milliseconds()`).
/// Not thread-safe: use it from the loop's thread only.
public final class SelectionService {
    /// Internal for the paste keystroke's extension (`SelectionService+Keystroke.swift`).
    let connection: DisplayConnection
    private let window: WindowID
    let atoms: KnownAtoms
    private let configuration: SelectionConfiguration
    private let writer: ReplyWriter
    /// The reads of other programs' selections (internal for `SelectionService+Reading.swift`).
    let reader: SelectionReader
    /// What this service owns, by selection (set here only; read by the reading extension).
    private(set) var ownerships: [SelectionName: Ownership] = [:]
    /// PropertyNotify events taken out of the queue while waiting for a timestamp; they
    /// are handled first by the next `processEvents(now:)`.
    private var deferredEvents: [ServerEvent] = []
    /// The result of a clipboard-manager hand-over in progress: nil until it answers.
    private var handOverAnswer: Bool?
    private var brokenHandled = false
    /// True when the last `processEvents(now:)` stopped at its budget with events queued.
    private var eventsLeftQueued = false

    /// What happened to our selections since the last `takeNotices()`, oldest first.
    private var notices: [SelectionNotice] = []
    /// Reports collected while one event is handled, noticed after it (so that the
    /// SelectionNotify is already sent).
    private var transferReports: [SelectionTransfer] = []

    private init(connection: DisplayConnection, configuration: SelectionConfiguration) {
        self.connection = connection
        self.configuration = configuration
        atoms = KnownAtoms(connection: connection)
        window = connection.createHiddenWindow(title: "cliptab selections")
        // ICCCM §2.5 and GTK: INCR above one chunk; a chunk fits in one request with room
        // for the ChangeProperty header, and is at most 256 KiB unless configured.
        let chunk = min(max(configuration.incrementalChunkBytes, 1), connection.maxRequestBytes - 100)
        writer = ReplyWriter(
            connection: connection, ownWindow: window, atoms: atoms, chunkBytes: max(chunk, 1),
            timeoutMilliseconds: configuration.incrementalTimeoutMilliseconds,
            maximumTransfers: configuration.maximumTransfers,
            maximumPerClient: configuration.maximumTransfersPerClient)
        reader = SelectionReader(
            connection: connection, ownWindow: window, atoms: atoms,
            maximumPending: max(configuration.maximumPendingReads, 1))
        reader.ownedText = { [unowned self] selection in
            ownerships[selection].flatMap { ownership in ownership.readableText.map { ($0, ownership.secret) }
            }
        }
        connection.flush()
    }

    /// Connects to `display` (nil: `$DISPLAY`) and creates the service's window.
    ///
    /// Installs a process-wide X error handler that records errors instead of exiting, and
    /// an I/O error exit handler that marks the service broken instead of exiting. Sets
    /// `LC_CTYPE` from the environment (C.UTF-8 if that is unsupported) for COMPOUND_TEXT.
    public static func connect(
        display: String?, configuration: SelectionConfiguration = SelectionConfiguration()
    ) throws(SelectionError) -> SelectionService {
        let connection = try DisplayConnection.open(
            display, timeoutMilliseconds: configuration.serverTimeoutMilliseconds)
        let service = SelectionService(connection: connection, configuration: configuration)
        if connection.isBroken {
            throw connection.timedOut
                ? .notAnswering(display: connection.name, milliseconds: connection.timeoutMilliseconds)
                : .connectionLost(display: connection.name)
        }
        return service
    }

    deinit {
        // Dropping the window also gives up any selection it still owns.
        connection.destroyWindow(window)
    }

    // MARK: - Loop integration

    /// The X connection's socket, for `poll()` with `POLLIN`.
    public var fileDescriptor: Int32 { connection.fileDescriptor }

    /// True once the X server connection was lost; the service then refuses all work.
    public var isBroken: Bool { connection.isBroken }

    /// The number of incremental (INCR) transfers to requestors in flight, for diagnostics.
    public var activeTransferCount: Int { writer.activeCount }

    /// The bytes the incremental transfers in flight hold, a text they share counted once,
    /// for diagnostics.
    package var transferHeldBytes: Int { writer.heldBytes }

    /// The number of `readText` calls not yet completed, for diagnostics.
    public var pendingReadCount: Int { reader.pendingCount }

    /// The property atoms interned for reads so far (a fixed pool: at most twice
    /// `maximumPendingReads`), for diagnostics.
    package var readPropertyCount: Int { reader.propertyCount }

    /// Handles everything that is due, then returns with Xlib's queue empty and flushed.
    ///
    /// First the timers that expired by `now`, then the queued X events (SelectionRequest,
    /// SelectionClear, SelectionNotify, PropertyNotify, DestroyNotify) — at most a few
    /// hundred per call; when some are left, `nextDeadline()` returns a time already due.
    public func processEvents(now: UInt64) {
        if connection.isBroken {
            handleBrokenConnection()
            return
        }
        writer.expire(now: now)
        reader.expire(now: now)
        // Bounded, so that a flood of X events (many INCR transfers at once) cannot starve
        // the loop's other sources; `nextDeadline()` asks for an immediate call meanwhile.
        var budget = max(configuration.maximumEventsPerCall, 1)
        eventsLeftQueued = false
        while !connection.isBroken {
            if budget == 0 {
                eventsLeftQueued = true
                // Only here: after the final XPending (which flushed and found nothing), a
                // flush could read new events into the queue, where poll cannot see them.
                connection.flush()
                break
            }
            budget -= 1
            if !deferredEvents.isEmpty {
                dispatch(deferredEvents.removeFirst(), now: now)
            } else if connection.pendingEventCount() > 0 {
                dispatch(connection.nextEvent(), now: now)
            } else {
                break
            }
        }
        connection.discardUncheckedErrors()
        if connection.isBroken { handleBrokenConnection() }
    }

    /// The earliest time `processEvents(now:)` must run even without X input (an INCR
    /// inactivity timeout or a read timeout), or nil when nothing is timed.
    public func nextDeadline() -> UInt64? {
        if connection.isBroken { return nil }
        // Events already read into Xlib's queue do not make the socket readable: left over
        // by the budget, or read by a round trip made after the last `processEvents` (the
        // daemon's policy starts reads and takes ownerships after handling the events).
        if !deferredEvents.isEmpty || eventsLeftQueued || connection.queuedEventCount() > 0 { return 0 }
        return [writer.nextDeadline, reader.nextDeadline].compactMap { $0 }.min()
    }

    private func dispatch(_ event: ServerEvent, now: UInt64) {
        defer {
            notices.append(contentsOf: transferReports.map(SelectionNotice.transfer))
            transferReports = []
        }
        switch event {
        case .selectionRequest(let request):
            serve(request, now: now)
        case .selectionClear(let selection, let time):
            selectionCleared(selection, time: time)
        case .selectionNotify(let notification):
            if notification.selection == atoms.clipboardManager && notification.target == atoms.saveTargets {
                handOverAnswer = notification.property != .none
                connection.deleteProperty(window, atoms.saveTargetsProperty)
            } else {
                _ = reader.selectionNotified(notification)
            }
        case .propertyChange(let change):
            if change.isDeletion
                && writer.propertyDeleted(window: change.window, property: change.property, now: now)
            {
                break
            }
            if change.window == window { _ = reader.propertyChanged(change) }
        case .windowDestroyed(let destroyed):
            writer.windowDestroyed(destroyed)
        case .key, .other:
            break
        }
    }

    private func handleBrokenConnection() {
        guard !brokenHandled else { return }
        brokenHandled = true
        deferredEvents = []
        ownerships = [:]
        writer.forgetAll()
        reader.failAll(.unavailable(lostMessage))
    }

    /// Why the connection is gone: lost, or timed out on a stopped server.
    var lostMessage: String {
        guard connection.timedOut else { return "the connection to X display \(connection.name) was lost" }
        return "the X server of display \(connection.name) did not answer within"
            + " \(connection.timeoutMilliseconds) ms, so the connection was dropped"
    }

    /// Why the broken connection is gone: lost, or dropped after the server stopped answering.
    private var lostError: SelectionError {
        connection.timedOut
            ? .notAnswering(display: connection.name, milliseconds: connection.timeoutMilliseconds)
            : .connectionLost(display: connection.name)
    }

    // MARK: - Owning

    /// Makes this service the owner of `selection` with UTF-8 `text` and returns the
    /// acquisition timestamp.
    ///
    /// ICCCM §2.1: takes a real server timestamp (a zero-length append to a property of
    /// its own window, waiting a bounded time for the PropertyNotify), never CurrentTime,
    /// then checks with `XGetSelectionOwner` that the server made it the owner. When this
    /// returns, requests are answered with the new text. `secret` adds the password-manager
    /// hint and keeps the text from clipboard managers. The bytes are copied into memory
    /// that is zeroed on release; the caller's array is the caller's to wipe.
    ///
    /// With `at`, no fresh timestamp is taken: the server takes the selection only if
    /// nobody acquired it after `at` (pass the time of a copy of ours to replace that copy
    /// and nothing newer), and this throws `.notOwner` when it did not.
    @discardableResult
    public func own(_ selection: SelectionName, text: [UInt8], secret: Bool, at: ServerTime? = nil)
        throws(SelectionError) -> ServerTime
    {
        guard !connection.isBroken else { throw lostError }
        guard TextEncoding.isValidUTF8(text) else { throw .invalidText }
        let buffer = WipingBuffer.copying(text)
        return try take(selection, at: at) { time in
            Ownership(text: buffer, secret: secret, time: time, selection: selection)
        }
    }

    /// Makes this service the owner of `selection` with `text`, as `own(_:text:secret:at:)`
    /// does with its bytes: a Swift string is well-formed UTF-8 already, so its bytes are
    /// copied once, unchecked, straight into the memory zeroed on release (no array of
    /// them is left behind unwiped).
    @discardableResult
    public func own(_ selection: SelectionName, string text: String, secret: Bool, at: ServerTime? = nil)
        throws(SelectionError) -> ServerTime
    {
        guard !connection.isBroken else { throw lostError }
        let buffer = WipingBuffer.copying(utf8Of: text)
        return try take(selection, at: at) { time in
            Ownership(text: buffer, secret: secret, time: time, selection: selection)
        }
    }

    /// Makes this service the owner of `selection` with another program's formats, as
    /// `readSnapshot` kept them; `secret` and `at` as for `own(_:text:secret:at:)`.
    @discardableResult
    public func own(
        _ selection: SelectionName, snapshot: SelectionSnapshot, secret: Bool, at: ServerTime? = nil
    )
        throws(SelectionError) -> ServerTime
    {
        guard !connection.isBroken else { throw lostError }
        return try take(selection, at: at) { [atoms] time in
            Ownership(snapshot: snapshot, secret: secret, time: time, selection: selection, atoms: atoms)
        }
    }

    /// Sets this service's window as the owner of `selection` at `at` or a fresh timestamp,
    /// checks that the server agrees, and records the ownership `make` builds.
    private func take(_ selection: SelectionName, at: ServerTime?, _ make: (ServerTime) -> Ownership)
        throws(SelectionError) -> ServerTime
    {
        let time: ServerTime
        if let at { time = at } else { time = try serverTimestamp() }
        let atom = atoms.atom(for: selection)
        connection.setSelectionOwner(atom, window, time: time)
        let owner = connection.selectionOwner(atom)
        guard !connection.isBroken else { throw lostError }
        guard owner == window else {
            ownerships[selection] = nil
            throw .notOwner(selection)
        }
        ownerships[selection] = make(time)
        return time
    }

    /// Gives up `selection` if this service still owns it, and drops its text (zeroed once
    /// no transfer in flight uses it).
    ///
    /// ICCCM §2.3.1: released with the acquisition time, so the server ignores the release
    /// if another client took the selection since — it can never clear someone else's text.
    public func release(_ selection: SelectionName) {
        guard let ownership = ownerships.removeValue(forKey: selection), !connection.isBroken else { return }
        let atom = atoms.atom(for: selection)
        // Two clients can acquire within the same millisecond; asking first closes that gap.
        guard connection.selectionOwner(atom) == window else { return }
        connection.setSelectionOwner(atom, .none, time: ownership.time)
        connection.flush()
    }

    /// True while this service owns `selection` (as far as the events handled so far tell).
    public func owns(_ selection: SelectionName) -> Bool {
        ownerships[selection] != nil
    }

    /// A copy of the text this service owns for `selection`, or nil (also for a snapshot
    /// without UTF-8 text).
    public func ownedText(_ selection: SelectionName) -> [UInt8]? {
        ownerships[selection]?.readableText?.copiedBytes
    }

    /// The acquisition timestamp of `selection`, or nil when not owned.
    public func acquisitionTime(_ selection: SelectionName) -> ServerTime? {
        ownerships[selection]?.time
    }

    /// A fresh server timestamp: the time of the PropertyNotify for a zero-length append to
    /// our own window's property (ICCCM §2.1 "Convention").
    private func serverTimestamp() throws(SelectionError) -> ServerTime {
        let empty = UnsafeRawBufferPointer(start: nil, count: 0)
        connection.changeProperty(
            window, atoms.timestampProperty, type: atoms.integer, bytes: empty, append: true)
        connection.flush()
        let bound = configuration.timestampTimeoutMilliseconds
        let deadline = MonotonicClock.milliseconds() + UInt64(max(bound, 0))
        while true {
            while let change = connection.takePropertyChange(window: window) {
                if change.property == atoms.timestampProperty && !change.isDeletion { return change.time }
                deferredEvents.append(.propertyChange(change))
            }
            if connection.isBroken { throw lostError }
            let now = MonotonicClock.milliseconds()
            if now >= deadline { throw .noTimestamp(milliseconds: bound) }
            connection.waitUntilReadable(milliseconds: Int(deadline - now))
        }
    }

    // MARK: - Serving (ICCCM §2.2, §2.6)

    private func serve(_ request: ServerEvent.ConversionRequest, now: UInt64) {
        // ICCCM §2.2: an obsolete requestor names no property; the target is the property.
        let property = request.property == .none ? request.target : request.property
        let answer = { (property: InternedAtom) in
            self.connection.send(
                ServerEvent.ConversionReply(
                    requestor: request.requestor, selection: request.selection, target: request.target,
                    property: property, time: request.time))
        }
        let refuse = { answer(.none) }
        guard request.owner == window, let selection = atoms.selection(for: request.selection),
            let ownership = ownerships[selection]
        else { return refuse() }
        // ICCCM §2.2: refuse requests made before we acquired the selection.
        if request.time != .current && request.time < ownership.time { return refuse() }
        if request.target == atoms.multiple {
            // ICCCM §2.6.2: MULTIPLE needs its parameter property.
            guard request.property != .none, serveMultiple(request, ownership: ownership, now: now)
            else {
                report(request.requestor, ownership, textDelivered: false)
                return refuse()
            }
        } else {
            let whenComplete = textDelivered(
                to: request.requestor, target: request.target, ownership: ownership)
            guard let reply = ownership.reply(to: request.target, atoms: atoms, connection: connection),
                writer.write(
                    reply, requestor: request.requestor, property: property, now: now,
                    whenComplete: whenComplete)
            else {
                report(request.requestor, ownership, textDelivered: false)
                return refuse()
            }
        }
        report(request.requestor, ownership, textDelivered: false)
        answer(property)
    }

    /// ICCCM §2.6.2: converts each (target, property) pair in order, independently; a pair
    /// that fails gets its property replaced by None, and the list is written back.
    private func serveMultiple(
        _ request: ServerEvent.ConversionRequest, ownership: Ownership, now: UInt64
    ) -> Bool {
        let contents = connection.readProperty(
            request.requestor, request.property, maxBytes: 1 << 16, delete: false)
        guard case .value(let parameters) = contents, parameters.format == 32 else { return false }
        var pairs = parameters.atoms
        guard pairs.count % 2 == 0 else { return false }
        let convertedPairs = max(configuration.maximumMultiplePairs, 0)
        for index in stride(from: 0, to: pairs.count, by: 2) {
            let target = pairs[index]
            let property = pairs[index + 1]
            var converted = false
            // No nested MULTIPLE, and every pair needs a property. Past the cap a pair fails
            // as ICCCM allows: each converted pair costs a checked write (a round trip).
            if index / 2 < convertedPairs && target != atoms.multiple && property != .none,
                let reply = ownership.reply(to: target, atoms: atoms, connection: connection)
            {
                converted = writer.write(
                    reply, requestor: request.requestor, property: property, now: now,
                    whenComplete: textDelivered(to: request.requestor, target: target, ownership: ownership))
            }
            if !converted { pairs[index + 1] = .none }
        }
        do {
            try connection.checked {
                connection.changeProperty(
                    request.requestor, request.property, type: parameters.type, longs: pairs.map(\.rawValue))
            }
        } catch {
            return false
        }
        return true
    }

    /// For a text target, the completion that reports the delivered text; nil otherwise.
    private func textDelivered(
        to requestor: WindowID, target: InternedAtom, ownership: Ownership
    ) -> (() -> Void)? {
        let text = [
            atoms.utf8String, atoms.plainTextUTF8, atoms.plainText, atoms.string, atoms.text,
            atoms.compoundText,
        ]
        guard text.contains(target) else { return nil }
        return { [weak self] in self?.report(requestor, ownership, textDelivered: true) }
    }

    private func report(_ requestor: WindowID, _ ownership: Ownership, textDelivered: Bool) {
        transferReports.append(
            SelectionTransfer(
                selection: ownership.selection, requestor: requestor,
                acquisitionTime: ownership.time,
                textDelivered: textDelivered))
    }

    private func selectionCleared(_ atom: InternedAtom, time: ServerTime) {
        guard let selection = atoms.selection(for: atom), let ownership = ownerships[selection]
        else {
            return
        }
        // ICCCM §2.2/§2.3: a clear older than our acquisition is left over from an earlier
        // round. At equal times (millisecond resolution) the server says who owns it now.
        if time < ownership.time { return }
        if time == ownership.time && connection.selectionOwner(atom) == window { return }
        ownerships[selection] = nil
        notices.append(.lost(selection))
    }

    /// What happened to our selections since the last call (losses and answered requests),
    /// oldest first; taken, so that each is handled once.
    public func takeNotices() -> [SelectionNotice] {
        defer { notices = [] }
        return notices
    }

    // MARK: - Clipboard manager

    /// Asks the clipboard manager to save the CLIPBOARD text before this program exits.
    ///
    /// Clipboard manager spec: serves the manager's requests — INCR included — until it
    /// answers or `timeoutMilliseconds` pass. True when the manager confirmed.
    ///
    /// Does nothing (false) unless a manager runs (`CLIPBOARD_MANAGER` has an owner) and this
    /// service owns CLIPBOARD with text that is not secret.
    public func handOverToClipboardManager(timeoutMilliseconds: Int) -> Bool {
        guard !connection.isBroken, let ownership = ownerships[.clipboard], !ownership.secret,
            connection.selectionOwner(atoms.clipboard) == window,
            connection.selectionOwner(atoms.clipboardManager) != .none
        else { return false }
        let deadline = MonotonicClock.milliseconds() + UInt64(max(timeoutMilliseconds, 0))
        guard let time = try? serverTimestamp() else { return false }
        connection.changeProperty(
            window, atoms.saveTargetsProperty, type: atoms.atom,
            longs: ownership.savedTargets(atoms).map(\.rawValue))
        handOverAnswer = nil
        connection.convertSelection(
            atoms.clipboardManager, target: atoms.saveTargets, property: atoms.saveTargetsProperty,
            requestor: window, time: time)
        connection.flush()
        while handOverAnswer == nil && !connection.isBroken {
            let now = MonotonicClock.milliseconds()
            processEvents(now: now)
            guard handOverAnswer == nil, now < deadline else { break }
            let wake = min(deadline, nextDeadline() ?? deadline)
            connection.waitUntilReadable(milliseconds: Int(wake > now ? wake - now : 0))
        }
        let answer = handOverAnswer ?? false
        handOverAnswer = nil
        return answer
    }
}
