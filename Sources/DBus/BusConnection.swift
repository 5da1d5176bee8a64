// SPDX-License-Identifier: MIT
internal import CDBus
import Glibc
import Posix

/// A private connection to a message bus: owns a `DBusConnection`, closes and releases it when
/// dropped (or on `close()`).
///
/// Not thread-safe by design: create it, use it and drop it on one thread (the daemon's loop
/// thread, or the CLI's main thread), together with every message, call and handler it serves.
///
/// A daemon registers its objects first, then requests its name (so that no call finds the
/// name without the object), then drives the connection from its own `poll()` loop, beside its
/// other descriptors, in this order:
///
///     while running {
///         connection.dispatchRound()               // 1. serve what was read: one waiting
///                                                  //    call per sender (`dispatchAll()`
///                                                  //    serves them all)
///         guard connection.isConnected else { break }
///         var fds = connection.pollDescriptors()   // 2. after dispatch: replies may have
///             + otherDescriptors                   //    turned the write watch on
///         let timeout = connection.hasMessagesToDispatch ? 0   // 3. (min with own timers)
///             : connection.nextTimeoutMilliseconds() ?? -1
///         poll(&fds, nfds_t(fds.count), timeout)
///         connection.handle(fds)                   // 4. read/write; other fds are ignored
///         connection.handleExpiredTimeouts()       // 5.
///     }
///
/// Handlers run inside the dispatch; they may send, emit and even make blocking calls, but
/// must not dispatch themselves (it returns at once when they do).
///
/// Registered handlers that capture the connection keep it alive: capture it `unowned` or
/// `weak`, or call `close()`, which drops every registration.
public final class BusConnection {
    /// The libdbus connection; one reference belongs to this object.
    private let handle: OpaquePointer
    /// The watches and timeouts of the main-loop integration.
    private let loop = BusLoopState()
    /// The registered objects by path.
    private var objects: [String: BusObjectRegistration] = [:]
    /// Called with every signal that `dispatchAll()` delivers.
    private var signalHandlers: [(BusMessage) -> Void] = []
    /// True once `close()` ran.
    private var isClosed = false
    /// The `Hello` sent without waiting (`connect(waitingForHello: false)`), until its answer.
    private var pendingHello: BusPendingCall?
    /// True while `dispatchAll()` runs, to refuse re-entry (libdbus would deadlock).
    var isDispatching = false
    /// The method calls to registered objects waiting to be served, per sender.
    var callQueues: SenderQueues
    /// The asynchronous calls whose handlers have not run yet, in the order of their serials
    /// (the order they were sent); see `BusConnection+PendingReplies.swift`.
    var pendingReplies: [PendingReply] = []

    /// The most array and dictionary elements a method call to this connection's objects
    /// may carry, and the error refusing one with more (given at `connect`).
    public let elementLimit: BusElementLimit
    /// The most bytes `handle(_:)` reads from the socket in one call while no whole message
    /// has arrived (libdbus alone reads about 4 KiB).
    public let readSliceBytes = 1 << 20
    /// The most bytes of one sender's calls that may wait to be served (given at `connect`).
    ///
    /// Estimated: strings and arrays by length, 256 bytes per call. A call past it is answered
    /// `LimitsExceeded` at once; a single call is always taken when its sender has none waiting.
    public var maximumQueuedBytesPerSender: Int { callQueues.maximumBytesPerSender }
    /// The per-sender cap of waiting calls when `connect` is given none: 16 MiB.
    public static let defaultMaximumQueuedBytesPerSender = 16 << 20
    /// Takes over one reference to the open private connection `handle`.
    private init(handle: OpaquePointer, elementLimit: BusElementLimit, maximumQueuedBytesPerSender: Int) {
        self.handle = handle
        self.elementLimit = elementLimit
        self.callQueues = SenderQueues(maximumBytesPerSender: maximumQueuedBytesPerSender)
    }

    deinit {
        close()
        dbus_connection_unref(handle)
    }

    /// Gives `body` the libdbus connection; the pointer must not outlive the call.
    func withUnsafeHandle<Result>(_ body: (OpaquePointer) throws -> Result) rethrows -> Result {
        try body(handle)
    }

    /// The default timeout of blocking calls, as libdbus's (25 s).
    public static let defaultTimeoutMilliseconds: Int32 = 25_000

    /// Opens a private connection to the bus at `address` and registers with it; nil means
    /// the session bus named by `DBUS_SESSION_BUS_ADDRESS`.
    ///
    /// With `waitingForHello` false, the bus's `Hello` is sent (the connection authenticated)
    /// and not waited for: the bus serves a connection's messages in order, so calls sent next
    /// are served after it, and its answer (the unique name) is read with theirs. A process that makes one call then
    /// waits for one round trip less. The connection never exits the process when the bus
    /// goes away (`isConnected` becomes false instead). Calls to its objects carrying more
    /// elements than `elementLimit` allows are refused, and one sender's waiting calls past
    /// `maximumQueuedBytesPerSender` are answered `LimitsExceeded`.
    public static func connect(
        address: String? = nil, waitingForHello: Bool = true, elementLimit: BusElementLimit = .unlimited,
        maximumQueuedBytesPerSender: Int = defaultMaximumQueuedBytesPerSender
    ) throws -> BusConnection {
        let resolved = try busAddress(address)
        let opened = try withBusError { error in dbus_connection_open_private(resolved, error) }
        guard let opened else { throw BusError.noMemory("opening a connection") }
        dbus_connection_set_exit_on_disconnect(opened, 0)
        // From here on, deinit closes and releases the connection if anything fails.
        let connection = BusConnection(
            handle: opened, elementLimit: elementLimit,
            maximumQueuedBytesPerSender: maximumQueuedBytesPerSender)
        if waitingForHello {
            _ = try withBusError { error in dbus_bus_register(opened, error) }
        }
        connection.limitReceivedDescriptors()
        try connection.loop.install(on: opened)
        let data = Unmanaged.passUnretained(connection).toOpaque()
        let filterAdded = dbus_connection_add_filter(
            opened,
            { _, message, data in
                guard let message, let data else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
                let connection = Unmanaged<BusConnection>.fromOpaque(data).takeUnretainedValue()
                if connection.refuseDescriptors(message) || connection.completeUnrouted(message)
                    || connection.queueCall(message)
                {
                    return DBUS_HANDLER_RESULT_HANDLED
                }
                connection.deliverSignal(message)
                return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
            }, data, nil)
        guard filterAdded != 0 else { throw BusError.noMemory("adding the signal filter") }
        if !waitingForHello { try connection.sayHello() }
        return connection
    }

    /// Sends the bus's `Hello` without waiting; its answer sets the unique name (libdbus's
    /// `dbus_bus_set_unique_name`, for a connection that registers itself).
    private func sayHello() throws {
        let hello = try BusMessage.methodCall(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
            interface: "org.freedesktop.DBus",
            member: "Hello")
        // The answer comes from a dispatch while the connection lives; a failure (at close)
        // sets nothing.
        let raw = handle
        pendingHello = try call(hello, timeoutMilliseconds: Self.defaultTimeoutMilliseconds) { result in
            guard case .success(let reply) = result, case .string(let name)? = try? reply.readValues().first
            else { return }
            _ = dbus_bus_set_unique_name(raw, name)
        }
        // Written now: libdbus authenticates before its first write and waits for the bus
        // without a limit while it does, so that wait stays inside `connect`, which callers
        // bound (the CLI with its watchdog). A call waited for later has its own timeout.
        dbus_connection_flush(handle)
    }

    /// Closes the connection and drops every registered object and signal handler; the object
    /// stays usable only for reading what was already received.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        for path in objects.keys {
            dbus_connection_unregister_object_path(handle, path)
        }
        objects.removeAll()
        callQueues.removeAll()
        signalHandlers.removeAll()
        dbus_connection_close(handle)
        loop.uninstall(from: handle)
        failPendingReplies()
    }

    /// The unique name the bus gave this connection, such as `:1.42`; empty when the bus has
    /// not answered `Hello` (this waits for that answer, when it was not waited for at connect).
    public var uniqueName: String {
        if let pendingHello, !pendingHello.isCompleted {
            _ = pendingHello.wait(
                until: MonotonicClock.milliseconds() + UInt64(Self.defaultTimeoutMilliseconds))
        }
        return dbus_bus_get_unique_name(handle).map { String(cString: $0) } ?? ""
    }

    /// False once the connection was closed or the bus went away.
    public var isConnected: Bool {
        dbus_connection_get_is_connected(handle) != 0
    }

    // MARK: - Client side

    /// Sends the method call `message` and waits for its reply, at most `timeoutMilliseconds`
    /// (-1: libdbus's default of 25 s).
    ///
    /// An error reply is thrown as a `BusError` with its name and message; no reply in time is
    /// `org.freedesktop.DBus.Error.NoReply`. Messages that arrive meanwhile are kept for
    /// `dispatchAll()` or `readMessage`.
    public func call(_ message: BusMessage, timeoutMilliseconds: Int32 = defaultTimeoutMilliseconds) throws
        -> BusMessage
    {
        try BusConnection.checkCallable(message, timeoutMilliseconds: timeoutMilliseconds)
        defer { message.markSent() }
        let reply = try message.withUnsafeHandle { raw in
            try withBusError { error in
                dbus_connection_send_with_reply_and_block(handle, raw, timeoutMilliseconds, error)
            }
        }
        guard let reply else { throw BusError.noMemory("waiting for a reply") }
        return BusMessage.adopting(reply)
    }

    /// Throws unless `message` is a method call that wants a reply and the timeout is one libdbus
    /// accepts (it aborts on a negative timeout other than -1).
    static func checkCallable(_ message: BusMessage, timeoutMilliseconds: Int32) throws {
        guard message.type == .methodCall else {
            throw BusError.invalidArgs(
                "only a method call can be called, not a message of type \(message.type)")
        }
        guard !message.noReplyExpected else {
            throw BusError.invalidArgs(
                "the call asks for no reply, so there is nothing to wait for: use send")
        }
        guard timeoutMilliseconds >= -1 else {
            throw BusError.invalidArgs(
                "the timeout must be -1 (default) or at least 0, not \(timeoutMilliseconds)")
        }
    }

    /// Queues `message` for sending and returns its serial; nothing waits for a reply (a reply
    /// that comes is read with `readMessage` or dropped by `dispatchAll()`).
    @discardableResult
    public func send(_ message: BusMessage) throws -> UInt32 {
        var serial: UInt32 = 0
        let queued = message.withUnsafeHandle { raw in dbus_connection_send(handle, raw, &serial) }
        message.markSent()
        guard queued != 0 else { throw BusError.noMemory("queueing a message") }
        return serial
    }

    /// Writes everything queued, blocking until it is written or the connection breaks.
    public func flush() {
        dbus_connection_flush(handle)
    }

    /// Asks the bus to route messages matching `rule` to this connection (a blocking round trip).
    ///
    /// A rule looks like `type='signal',interface='com.example.App1'`.
    public func addMatch(_ rule: String) throws {
        try BusSyntax.checkString(rule, what: "match rule")
        try withBusError { error in dbus_bus_add_match(handle, rule, error) }
    }

    /// Removes a match rule added with `addMatch` (a blocking round trip).
    public func removeMatch(_ rule: String) throws {
        try BusSyntax.checkString(rule, what: "match rule")
        try withBusError { error in dbus_bus_remove_match(handle, rule, error) }
    }

    /// Waits at most `timeoutMilliseconds` (negative: forever) for the next incoming message
    /// and returns it, bypassing registered objects and signal handlers; nil on timeout or once
    /// the connection is gone (the last message then is the `Disconnected` signal of
    /// `org.freedesktop.DBus.Local`).
    ///
    /// For clients that do not run the `poll()` integration (the CLI's `watch`).
    public func readMessage(timeoutMilliseconds: Int32) -> BusMessage? {
        let start = MonotonicClock.milliseconds()
        var hasWaited = false
        while true {
            if let message = dbus_connection_pop_message(handle) { return BusMessage.adopting(message) }
            guard isConnected else { return nil }
            var wait: Int32 = -1
            if timeoutMilliseconds >= 0 {
                let elapsed = MonotonicClock.milliseconds() - start
                if hasWaited && elapsed >= UInt64(timeoutMilliseconds) { return nil }
                wait = Int32(clamping: max(0, Int64(timeoutMilliseconds) - Int64(elapsed)))
            }
            hasWaited = true
            dbus_connection_read_write(handle, wait)
        }
    }

    // MARK: - Main-loop integration

    /// One `pollfd` per descriptor libdbus wants watched now (its enabled watches, merged per
    /// descriptor); build it again on every iteration, after `dispatchAll()`.
    public func pollDescriptors() -> [pollfd] {
        loop.pollDescriptors()
    }

    /// Like `pollDescriptors()`, without asking to read when `reading` is false (a loop that
    /// holds back new calls until its replies drain).
    public func pollDescriptors(reading: Bool) -> [pollfd] {
        guard !reading else { return loop.pollDescriptors() }
        return loop.pollDescriptors().compactMap { entry in
            var entry = entry
            entry.events &= ~Int16(POLLIN)
            return entry.events == 0 ? nil : entry
        }
    }

    /// Lets libdbus read and write on the descriptors `poll()` found ready; entries for other
    /// descriptors (X11, signalfd, …) are ignored.
    ///
    /// libdbus reads at most 4 KiB per readiness, so a message near the bus's 128 MiB limit
    /// would take some 30,000 turns of the caller's loop, and everything the bus sends after
    /// it waits behind it: while the socket holds more, reading goes on here, up to
    /// `readSliceBytes` per call, and stops early once a whole message is there to dispatch.
    public func handle(_ polled: [pollfd]) {
        loop.handle(polled, readSliceBytes: readSliceBytes) { [handle] in
            dbus_connection_get_dispatch_status(handle) != DBUS_DISPATCH_DATA_REMAINS
        }
    }

    /// The bytes of messages queued for sending and not yet written to the socket.
    public var outgoingBytes: Int {
        Int(dbus_connection_get_outgoing_size(handle))
    }

    /// Milliseconds until libdbus's next timeout is due (0: already due), nil when none is
    /// pending; `now` is `CLOCK_MONOTONIC` in milliseconds, as Posix's `MonotonicClock.milliseconds()` gives it.
    public func nextTimeoutMilliseconds(now: UInt64 = MonotonicClock.milliseconds()) -> Int32? {
        loop.nextTimeoutMilliseconds(now: now)
    }

    /// Runs the libdbus timeouts that are due (pending-call and authentication timeouts).
    public func handleExpiredTimeouts(now: UInt64 = MonotonicClock.milliseconds()) {
        loop.handleExpiredTimeouts(now: now)
    }

    /// Calls `handler` with every signal `dispatchAll()` delivers to this connection (signals
    /// matched by `addMatch`, `NameLost`/`NameAcquired`, and the local `Disconnected`).
    public func addSignalHandler(_ handler: @escaping (BusMessage) -> Void) {
        guard !isClosed else { return }
        signalHandlers.append(handler)
    }

    /// Passes one message from the filter to the signal handlers when it is a signal.
    private func deliverSignal(_ raw: OpaquePointer) {
        guard !signalHandlers.isEmpty, dbus_message_get_type(raw) == DBUS_MESSAGE_TYPE_SIGNAL else { return }
        let message = BusMessage.retaining(raw)
        for handler in signalHandlers { handler(message) }
    }

    // MARK: - Objects

    /// Serves `interfaces` (plus Introspectable, Properties and Peer) at the object `path`.
    ///
    /// Throws `InvalidArgs` for an invalid path or declaration, or when the path is taken.
    public func registerObject(path: String, interfaces: [BusInterface]) throws {
        guard !isClosed else {
            throw BusError(name: BusErrorName.disconnected, message: "the connection is closed")
        }
        try BusSyntax.checkObjectPath(path)
        var names: Set<String> = []
        for interface in interfaces {
            try interface.validate()
            guard !BusIntrospection.standardInterfaceNames.contains(interface.name) else {
                throw BusError.invalidArgs(
                    "\(interface.name) is served by every object and cannot be registered")
            }
            guard names.insert(interface.name).inserted else {
                throw BusError.invalidArgs("the interface \(interface.name) is given twice for \(path)")
            }
        }
        guard objects[path] == nil else {
            throw BusError.invalidArgs("an object is already registered at \(path)")
        }
        let registration = BusObjectRegistration(path: path, interfaces: interfaces, connection: self)
        var vtable = DBusObjectPathVTable()
        vtable.message_function = { _, message, data in
            guard let message, let data else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
            let registration = Unmanaged<BusObjectRegistration>.fromOpaque(data).takeUnretainedValue()
            let handled = registration.dispatch(BusMessage.retaining(message))
            return handled ? DBUS_HANDLER_RESULT_HANDLED : DBUS_HANDLER_RESULT_NOT_YET_HANDLED
        }
        // The registration stays in `objects` (which keeps it alive) exactly as long as libdbus
        // holds its pointer.
        let data = Unmanaged.passUnretained(registration).toOpaque()
        _ = try withBusError { error in
            dbus_connection_try_register_object_path(handle, path, &vtable, data, error)
        }
        objects[path] = registration
    }

    /// The object registered at `path`, if any.
    func registration(at path: String) -> BusObjectRegistration? { objects[path] }

    /// Stops serving the object at `path`; nothing happens if none is registered there.
    public func unregisterObject(path: String) {
        guard objects[path] != nil else { return }
        dbus_connection_unregister_object_path(handle, path)
        objects[path] = nil
    }

    /// The next path elements of the objects registered below `path` (for introspection).
    func registeredChildren(of path: String) -> [String] {
        var children: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = nil
        guard dbus_connection_list_registered(handle, path, &children) != 0, let children else { return [] }
        defer { dbus_free_string_array(children) }
        var result: [String] = []
        var index = 0
        while let child = children[index] {
            result.append(String(cString: child))
            index += 1
        }
        return result.sorted()
    }
}
