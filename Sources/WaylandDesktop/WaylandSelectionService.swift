// SPDX-License-Identifier: MIT
import CWayland
import Glibc
import Posix

/// The clipboard and primary selection of a Wayland seat, as a clipboard manager sees them.
///
/// Through the data-control protocol (`ext_data_control_manager_v1`, or
/// `zwlr_data_control_manager_v1` version 2) it owns selections with data of its own, serves
/// the compositor's requests for it, and reads what other programs offer. It knows nothing
/// of tables.
///
/// Single-threaded, for one `poll()` loop: wait on `fileDescriptor` (readable) until
/// `nextDeadline()`, then call `processEvents(now:)`. Callbacks run inside
/// `processEvents(now:)`, never inside another call. A compositor that stops answering
/// costs at most `compositorTimeoutMilliseconds` per blocking call; then the service is
/// broken (`isBroken`, `failure`) and the caller connects a new one.
public final class WaylandSelectionService {
    /// The password hint of clipboard managers (KeePassXC, Klipper, cliphist).
    public static let passwordHintType = "x-kde-passwordManagerHint"

    /// The tunables.
    public let configuration: WaylandSelectionConfiguration

    let display: DisplayConnection
    let watcher: ReadinessWatcher
    var registry: ProtocolObject?
    var seat: ProtocolObject?
    var manager: ProtocolObject?
    var device: ProtocolObject?
    /// The protocol bound, and whether its version has the primary selection.
    var dataControl = CWayland_wlr_data_control
    var primarySupported = false
    /// Globals announced by the registry: name and version by interface (first seat only).
    var globals: [String: (name: UInt32, version: UInt32)] = [:]
    /// Offers introduced and not yet named by a selection event.
    var introducedOffers: [OpaquePointer: DataOffer] = [:]
    /// The current offer of each selection (also our own, echoed by the compositor).
    var offers: [WaylandSelectionName: DataOffer] = [:]
    var ownerships: [WaylandSelectionName: Ownership] = [:]
    /// The token of the `own` call waiting for its round trip: its cancellation is a
    /// refusal, reported by `own`, not a loss.
    var tokenBeingTaken: WaylandOwnershipToken?
    var nextSerial: UInt64 = 1
    var transfers: [OutgoingTransfer] = []
    var reads: [IncomingRead] = []
    /// Callbacks to run at the end of `processEvents(now:)`.
    var notifications: [() -> Void] = []
    /// What happened to our selections since the last `takeNotices()`, oldest first.
    var notices: [WaylandNotice] = []
    var watchingDisplayForWriting = false
    var brokenHandled = false
    /// The keystroke marks sent, and the highest the compositor has answered.
    var keystrokesSent: UInt64 = 0
    var keystrokesHandled: UInt64 = 0
    /// The marks not answered yet.
    var keystrokeMarks: [SyncCallback] = []
    /// The seat's keyboard, got once the seat says it has one: only for its keymap.
    var seatKeyboard: ProtocolObject?
    /// The keymap the seat sent last (the person's layout), or why it cannot be read.
    var seatKeymapSource: SeatKeymapSource?
    /// The windows of the foreign-toplevel manager, where the compositor has one.
    var toplevels: OpaquePointer?

    private init(
        display: DisplayConnection, watcher: ReadinessWatcher, configuration: WaylandSelectionConfiguration
    ) {
        self.display = display
        self.watcher = watcher
        self.configuration = configuration
    }

    /// Connects to the display `name` (a socket name in `XDG_RUNTIME_DIR`, or an absolute
    /// path; nil: `$WAYLAND_DISPLAY`), binds the seat and a data-control manager, and reads
    /// the current selections; each round trip bounded by the configured timeout.
    public static func connect(
        display name: String?, configuration: WaylandSelectionConfiguration = WaylandSelectionConfiguration()
    ) throws(WaylandError) -> WaylandSelectionService {
        let display = try DisplayConnection.connect(name)
        let service = WaylandSelectionService(
            display: display, watcher: try ReadinessWatcher.make(), configuration: configuration)
        try service.start()
        return service
    }

    private func start() throws(WaylandError) {
        let registry = try ProtocolObject.take(
            CWayland_display_get_registry(display.handle), of: display, making: "wl_display.get_registry",
            destructor: { wl_proxy_destroy($0) })
        self.registry = registry
        CWayland_registry_add_listener(registry.handle, Listeners.registry, selfPointer)
        try roundTrip("listing the globals")

        guard let seatGlobal = globals["wl_seat"] else { throw .missingGlobal("wl_seat") }
        let ext = String(cString: CWayland_ext_data_control.manager.pointee.name)
        let wlr = String(cString: CWayland_wlr_data_control.manager.pointee.name)
        let chosen: (name: UInt32, version: UInt32)
        if let global = globals[ext] {
            (dataControl, chosen) = (CWayland_ext_data_control, global)
        } else if let global = globals[wlr] {
            (dataControl, chosen) = (CWayland_wlr_data_control, global)
        } else {
            throw .missingGlobal("\(ext) or \(wlr)")
        }
        let seat = try ProtocolObject.take(
            CWayland_registry_bind(
                registry.handle, seatGlobal.name, CWayland_seat_interface(), min(seatGlobal.version, 5)),
            of: display, making: "binding wl_seat", destructor: { CWayland_seat_release($0) })
        self.seat = seat
        CWayland_seat_add_listener(seat.handle, Listeners.seat, selfPointer)
        let version = min(chosen.version, dataControl.version)
        primarySupported = version >= dataControl.primary_version
        let manager = try ProtocolObject.take(
            CWayland_registry_bind(registry.handle, chosen.name, dataControl.manager, version), of: display,
            making: "binding the data-control manager", destructor: { CWayland_manager_destroy($0) })
        self.manager = manager
        let device = try ProtocolObject.take(
            withUnsafePointer(to: dataControl) {
                CWayland_manager_get_data_device(manager.handle, $0, seat.handle)
            },
            of: display, making: "get_data_device", destructor: { CWayland_device_destroy($0) })
        self.device = device
        CWayland_device_add_listener(device.handle, Listeners.device, selfPointer)
        try followWindows()
        try watcher.watch(display.fileDescriptor, for: .readable)
        try roundTrip("reading the selections")
        // The seat's capabilities came with that round trip; its keyboard's keymap comes
        // after one more.
        if seatKeyboard != nil { try roundTrip("reading the seat's keymap") }
    }

    deinit {
        // Sources, offers and objects send their destructors before the display goes.
        transfers = []
        reads = []
        ownerships = [:]
        offers = [:]
        introducedOffers = [:]
        keystrokeMarks = []
        if let toplevels { CWayland_toplevels_free(toplevels) }
        device = nil
        manager = nil
        seatKeyboard = nil
        seatKeymapSource = nil
        seat = nil
        registry = nil
        display.cancelRead()
        display.flush()
    }

    var selfPointer: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    /// The descriptor to poll for reading: ready when the compositor sent something or a
    /// transfer or read can go on.
    public var fileDescriptor: Int32 { watcher.fileDescriptor }

    /// True once the connection failed or the compositor stopped answering.
    public var isBroken: Bool { display.isBroken }

    /// Why the service is broken, or nil.
    public var failure: WaylandError? { display.failure }

    /// The interface of the data-control manager bound: `ext_data_control_manager_v1` or
    /// `zwlr_data_control_manager_v1`.
    public var protocolName: String { String(cString: dataControl.manager.pointee.name) }

    /// True when the compositor lets clipboard managers own and read the primary selection.
    public var supportsPrimarySelection: Bool { primarySupported }

    /// The transfers to readers in flight, for diagnostics and tests.
    public var activeTransferCount: Int { transfers.count }

    /// The reads of other programs' selections in flight, for diagnostics and tests.
    public var pendingReadCount: Int { reads.count }

    /// Handles everything that is due, then returns with libwayland's queue empty, the
    /// requests flushed and a read prepared for the next poll.
    ///
    /// Reads what the compositor sent and dispatches it, writes into the readers' pipes and
    /// reads from the owners', drops what passed its deadline by `now`, runs the callbacks.
    public func processEvents(now: UInt64) {
        if !display.isBroken, display.prepareRead() {
            if display.poll(milliseconds: 0).readable { display.readEvents() } else { display.cancelRead() }
            display.dispatchPending()
        }
        if display.isBroken { handleBroken() }
        advanceTransfers(now: now)
        advanceReads(now: now)
        deliverNotifications()
        if !display.isBroken {
            display.prepareRead()
            let flushed = display.flush()
            if flushed == watchingDisplayForWriting, !display.isBroken {
                // A full socket: wait for it to take the rest (and only then).
                try? watcher.watch(display.fileDescriptor, for: flushed ? .readable : .both, modify: true)
                watchingDisplayForWriting = !flushed
            }
        }
        if display.isBroken {
            handleBroken()
            deliverNotifications()
        }
    }

    /// The earliest time `processEvents(now:)` must run even if `fileDescriptor` stays
    /// quiet (a transfer or read deadline, or work already due: then a past time), or nil.
    public func nextDeadline() -> UInt64? {
        if !notifications.isEmpty || !notices.isEmpty { return 0 }
        if display.isBroken { return nil }
        // Events read into libwayland's queue (by a round trip) do not make the socket readable.
        if !display.readPrepared { return 0 }
        let deadlines = transfers.map(\.deadline) + reads.map(\.deadline)
        return deadlines.min()
    }

    /// Waits, at most the compositor timeout, until the compositor has handled every request.
    ///
    /// Dispatches what it sends meanwhile. Breaks the service on a timeout.
    func roundTrip(_ what: String) throws(WaylandError) {
        if let failure = display.failure { throw failure }
        display.cancelRead()
        let callback = try SyncCallback.send(on: display)
        let deadline =
            MonotonicClock.milliseconds() + UInt64(max(configuration.compositorTimeoutMilliseconds, 1))
        while !callback.isDone, display.prepareRead() {
            if callback.isDone {
                display.cancelRead()
                break
            }
            let flushed = display.flush()
            let now = MonotonicClock.milliseconds()
            if display.isBroken || now >= deadline {
                display.cancelRead()
                display.fail(.compositorTimedOut(what))
                break
            }
            let ready = display.poll(milliseconds: Int32(deadline - now), writable: !flushed)
            if ready.readable { display.readEvents() } else { display.cancelRead() }
            display.dispatchPending()
        }
        if let failure = display.failure {
            handleBroken()
            throw failure
        }
    }

    /// Ends everything in flight once the connection is gone: the reads fail, the transfers
    /// are abandoned, nothing is owned any more (no loss is reported: the caller reconnects).
    func handleBroken() {
        guard !brokenHandled else { return }
        brokenHandled = true
        watcher.unwatch(display.fileDescriptor)
        for transfer in transfers { finish(transfer, .abandoned) }
        for read in reads { finish(read, .failure(.broken)) }
        ownerships = [:]
    }

    /// What happened to our selections since the last call (losses, served and refused
    /// requests), oldest first; taken, so that each is handled once.
    public func takeNotices() -> [WaylandNotice] {
        defer { notices = [] }
        return notices
    }

    /// Runs the queued callbacks, also those the callbacks queue.
    func deliverNotifications() {
        while !notifications.isEmpty {
            let batch = notifications
            notifications = []
            for notification in batch { notification() }
        }
    }
}
