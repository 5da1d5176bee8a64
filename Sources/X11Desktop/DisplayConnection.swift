// SPDX-License-Identifier: MIT
import CX11
import Glibc

/// The connection to an X server: owns the `Display*` and is the only code that calls Xlib.
///
/// Every method is a no-op (or returns "nothing") once the connection is broken: after an
/// I/O error Xlib flags the display dead, and `XNextEvent` on an empty queue would crash.
final class DisplayConnection {
    /// The `Display*`: only this file calls Xlib with it directly; extensions in other
    /// files (the keyboard) reach it through `withUnsafeHandle(_:)`.
    private let handle: OpaquePointer
    /// Bounds every Xlib call made through this connection (see `RoundTripWatchdog`).
    private let watchdog: RoundTripWatchdog
    /// The display name, such as `:0`.
    let name: String
    /// The socket to poll for `POLLIN`.
    let fileDescriptor: Int32
    /// True once Xlib reported an I/O error (the server went away).
    private(set) var isBroken = false
    /// True when Xlib can convert between UTF-8 and COMPOUND_TEXT in the current locale.
    private(set) var supportsCompoundText = false

    private init(handle: OpaquePointer, name: String, timeoutMilliseconds: Int) {
        self.handle = handle
        self.name = name
        self.fileDescriptor = XConnectionNumber(handle)
        watchdog = RoundTripWatchdog(fileDescriptor: fileDescriptor, timeoutMilliseconds: timeoutMilliseconds)
    }

    /// An `XOpenDisplay` the server has not answered yet, kept for the next attempt.
    ///
    /// `nonisolated(unsafe)`: like every display of this module, opened and used from the
    /// loop's thread only; the opener's own thread touches only the opener.
    nonisolated(unsafe) private static var pendingOpen: DisplayOpener?

    /// True once a call overran its bound and the connection was dropped for it.
    var timedOut: Bool { watchdog.fired }

    /// The bound on one call to the server, in milliseconds.
    var timeoutMilliseconds: Int { watchdog.bound }

    /// Runs `body` with the `Display*`, bounded by the connection's deadline.
    ///
    /// The only way code outside this file reaches Xlib; `body` must not keep the pointer.
    func withUnsafeHandle<Result>(_ body: (OpaquePointer) throws -> Result) rethrows -> Result {
        watchdog.arm()
        defer { watchdog.disarm() }
        return try body(handle)
    }

    /// Connects to `requested` (nil: `$DISPLAY`), installs the error handlers and prepares
    /// the locale for COMPOUND_TEXT.
    ///
    /// Waits at most `timeoutMilliseconds` for the server, which also bounds every later call.
    /// A connection the server has not answered by then stays under way: this throws
    /// `.notAnswering`, and a later `open` of the same display takes its result (or throws
    /// again at once while it is still under way).
    static func open(_ requested: String?, timeoutMilliseconds: Int) throws(SelectionError)
        -> DisplayConnection
    {
        let name: String
        if let requested {
            name = requested
        } else if let value = getenv("DISPLAY"), value.pointee != 0 {
            name = String(cString: value)
        } else {
            throw .noDisplay
        }
        ProtocolErrors.installHandlers()
        let opener: DisplayOpener
        if let pending = pendingOpen, pending.name == name {
            // Never a second thread waiting for the same server.
            guard pending.wait(milliseconds: 0) else {
                throw .notAnswering(display: name, milliseconds: timeoutMilliseconds)
            }
            opener = pending
        } else {
            pendingOpen?.abandon()
            guard let started = DisplayOpener.start(name) else { throw .cannotConnect(display: name) }
            opener = started
        }
        pendingOpen = nil
        guard opener.wait(milliseconds: timeoutMilliseconds) else {
            pendingOpen = opener
            throw .notAnswering(display: name, milliseconds: timeoutMilliseconds)
        }
        guard let handle = opener.take() else { throw .cannotConnect(display: name) }
        let connection = DisplayConnection(
            handle: handle, name: name, timeoutMilliseconds: timeoutMilliseconds)
        // Without this Xlib calls exit(1) after an I/O error (libX11 ≥ 1.7). The handler
        // runs inside whatever Xlib call met the error; it only sets a flag.
        XSetIOErrorExitHandler(
            handle,
            { _, userData in
                guard let userData else { return }
                Unmanaged<DisplayConnection>.fromOpaque(userData).takeUnretainedValue().isBroken = true
            },
            Unmanaged.passUnretained(connection).toOpaque())
        connection.supportsCompoundText = prepareLocale()
        return connection
    }

    /// Sets `LC_CTYPE` from the environment, as Xlib's text conversions follow it.
    ///
    /// Falls back to C.UTF-8 when that locale is missing or Xlib does not support it.
    /// True when Xlib supports the resulting locale.
    private static func prepareLocale() -> Bool {
        if setlocale(LC_CTYPE, "") != nil && XSupportsLocale() != 0 { return true }
        if setlocale(LC_CTYPE, "C.UTF-8") != nil && XSupportsLocale() != 0 { return true }
        setlocale(LC_CTYPE, "C")
        return XSupportsLocale() != 0
    }

    deinit {
        // XCloseDisplay may itself meet the I/O error; the exit handler must not reach this
        // object any more, and must not be the default one, which exits.
        XSetIOErrorExitHandler(handle, { _, _ in }, nil)
        // XCloseDisplay waits for the server (XSync): first that wait, bounded; a server
        // that does not answer leaves the connection flagged, and XCloseDisplay then skips it.
        if !isBroken { withUnsafeHandle { _ = XSync($0, True) } }
        watchdog.stop()
        ProtocolErrors.discard(display: handle)
        XCloseDisplay(handle)
    }

    // MARK: - Atoms and windows

    /// Interns `names` in one round trip; 0 for each on a broken connection.
    func internAtoms(_ names: [String]) -> [InternedAtom] {
        var atoms = [UInt](repeating: 0, count: names.count)
        guard !isBroken, !names.isEmpty else { return atoms.map(InternedAtom.init(rawValue:)) }
        watchdog.arm()
        defer { watchdog.disarm() }
        var pointers = names.map { strdup($0) }
        defer { for pointer in pointers { free(pointer) } }
        XInternAtoms(handle, &pointers, Int32(names.count), False, &atoms)
        return atoms.map(InternedAtom.init(rawValue:))
    }

    /// The name of `atom`, or nil when it has none (or the connection is broken).
    func atomName(_ atom: InternedAtom) -> String? {
        guard !isBroken, atom != .none else { return nil }
        watchdog.arm()
        defer { watchdog.disarm() }
        guard let pointer = XGetAtomName(handle, atom.rawValue) else { return nil }
        defer { XFree(pointer) }
        return String(cString: pointer)
    }

    /// Creates an unmapped 1×1 window on the default root, listening for property changes.
    func createHiddenWindow(title: String) -> WindowID {
        guard !isBroken else { return .none }
        watchdog.arm()
        defer { watchdog.disarm() }
        let created = XCreateSimpleWindow(handle, XDefaultRootWindow(handle), -10, -10, 1, 1, 0, 0, 0)
        XSelectInput(handle, created, PropertyChangeMask)
        XStoreName(handle, created, title)
        let window = WindowID(rawValue: created)
        // WM_CLASS is "instance\0class\0"; it names the window in xprop and xwininfo -tree.
        let windowClass = Array("cliptab\0Cliptab\0".utf8)
        let classAtom = internAtoms(["WM_CLASS"])[0]
        changeProperty(window, classAtom, type: InternedAtom(rawValue: UInt(XA_STRING)), bytes: windowClass)
        return window
    }

    /// Destroys `window`.
    func destroyWindow(_ window: WindowID) {
        guard !isBroken, window != .none else { return }
        watchdog.arm()
        defer { watchdog.disarm() }
        XDestroyWindow(handle, window.rawValue)
        XFlush(handle)
    }

    /// Listens to a requestor's `window` during an incremental transfer: its property
    /// changes (each deletion asks for the next chunk) and its destruction.
    func listenForTransfer(on window: WindowID) {
        guard !isBroken else { return }
        watchdog.arm()
        defer { watchdog.disarm() }
        XSelectInput(handle, window.rawValue, PropertyChangeMask | StructureNotifyMask)
    }

    /// Stops listening to events of `window` (replacing this client's mask with none).
    func stopListening(to window: WindowID) {
        guard !isBroken else { return }
        watchdog.arm()
        defer { watchdog.disarm() }
        XSelectInput(handle, window.rawValue, NoEventMask)
    }

    // MARK: - Properties

    /// Replaces (or, with `append`, extends) a format-8 property.
    func changeProperty(
        _ window: WindowID, _ property: InternedAtom, type: InternedAtom, bytes: UnsafeRawBufferPointer,
        append: Bool = false
    ) {
        guard !isBroken else { return }
        watchdog.arm()
        defer { watchdog.disarm() }
        let pointer = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
        XChangeProperty(
            handle, window.rawValue, property.rawValue, type.rawValue, 8,
            append ? PropModeAppend : PropModeReplace, pointer,
            Int32(bytes.count))
    }

    /// Replaces a format-8 property with `bytes`.
    func changeProperty(_ window: WindowID, _ property: InternedAtom, type: InternedAtom, bytes: [UInt8]) {
        bytes.withUnsafeBytes { changeProperty(window, property, type: type, bytes: $0) }
    }

    /// Replaces a format-32 property with `longs`; Xlib takes format-32 data as C `long`s.
    func changeProperty(_ window: WindowID, _ property: InternedAtom, type: InternedAtom, longs: [UInt]) {
        guard !isBroken else { return }
        watchdog.arm()
        defer { watchdog.disarm() }
        _ = longs.withUnsafeBytes { raw in
            XChangeProperty(
                handle, window.rawValue, property.rawValue, type.rawValue, 32, PropModeReplace,
                raw.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(longs.count))
        }
    }

    /// Deletes `property` of `window`.
    func deleteProperty(_ window: WindowID, _ property: InternedAtom) {
        guard !isBroken else { return }
        watchdog.arm()
        defer { watchdog.disarm() }
        XDeleteProperty(handle, window.rawValue, property.rawValue)
    }

    /// Reads the whole of `property` of `window` in bounded pieces, refusing values larger
    /// than `maxBytes`; deletes the property afterwards (also when refused) if `delete`.
    func readProperty(_ window: WindowID, _ property: InternedAtom, maxBytes: Int, delete: Bool)
        -> PropertyContents
    {
        guard !isBroken else { return .missing }
        watchdog.arm()
        defer { watchdog.disarm() }
        var bytes: [UInt8] = []
        var type = InternedAtom.none
        var format: Int32 = 0
        var itemCount = 0
        var offset = 0
        // 4 MiB per reply bounds the memory Xlib allocates at once.
        let pieceUnits = 1 << 20
        while true {
            var actualType: UInt = 0
            var actualFormat: Int32 = 0
            var items: UInt = 0
            var remaining: UInt = 0
            var data: UnsafeMutablePointer<UInt8>?
            let status = XGetWindowProperty(
                handle, window.rawValue, property.rawValue, offset, pieceUnits, False, UInt(AnyPropertyType),
                &actualType,
                &actualFormat, &items, &remaining, &data)
            defer { if let data { XFree(data) } }
            guard status == Success, actualType != UInt(None) else { return .missing }
            if offset == 0 {
                type = InternedAtom(rawValue: actualType)
                format = actualFormat
                let total = Int(items) * Int(actualFormat) / 8 + Int(remaining)
                if total > maxBytes {
                    if delete { deleteProperty(window, property) }
                    return .tooLarge(byteCount: total)
                }
                bytes.reserveCapacity(actualFormat == 32 ? total * 2 : total)
            }
            let itemSize =
                switch actualFormat {
                case 8: 1
                case 16: MemoryLayout<CShort>.size
                default: MemoryLayout<CLong>.size
                }
            if let data, items > 0 {
                bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(items) * itemSize))
            }
            itemCount += Int(items)
            offset += Int(items) * Int(actualFormat) / 32
            if remaining == 0 || items == 0 { break }
        }
        if delete { deleteProperty(window, property) }
        return .value(PropertyValue(type: type, format: format, bytes: bytes, itemCount: itemCount))
    }

    // MARK: - Selections

    /// Asks the server to make `window` the owner of `selection` as of `time` (`.none` gives
    /// it up).
    func setSelectionOwner(_ selection: InternedAtom, _ window: WindowID, time: ServerTime) {
        guard !isBroken else { return }
        watchdog.arm()
        defer { watchdog.disarm() }
        XSetSelectionOwner(handle, selection.rawValue, window.rawValue, time.rawValue)
    }

    /// The current owner window of `selection` (`.none` for none, or when broken).
    func selectionOwner(_ selection: InternedAtom) -> WindowID {
        guard !isBroken else { return .none }
        watchdog.arm()
        defer { watchdog.disarm() }
        return WindowID(rawValue: XGetSelectionOwner(handle, selection.rawValue))
    }

    /// Asks the owner of `selection` to convert it to `target` into `property` of `requestor`.
    func convertSelection(
        _ selection: InternedAtom, target: InternedAtom, property: InternedAtom, requestor: WindowID,
        time: ServerTime
    ) {
        guard !isBroken else { return }
        watchdog.arm()
        defer { watchdog.disarm() }
        XConvertSelection(
            handle, selection.rawValue, target.rawValue, property.rawValue, requestor.rawValue, time.rawValue)
    }

    /// Sends the ICCCM reply to a SelectionRequest to its requestor: property `.none`
    /// refuses it.
    func send(_ reply: ServerEvent.ConversionReply) {
        guard !isBroken else { return }
        watchdog.arm()
        defer { watchdog.disarm() }
        reply.withXEvent(display: handle) { event in
            _ = XSendEvent(handle, reply.requestor.rawValue, False, NoEventMask, event)
        }
    }

    // MARK: - Events and errors

    /// Flushes and returns how many events Xlib has queued (reading what the socket holds).
    func pendingEventCount() -> Int32 {
        guard !isBroken else { return 0 }
        watchdog.arm()
        defer { watchdog.disarm() }
        return XPending(handle)
    }

    /// How many events Xlib has already read into its queue, without reading or flushing:
    /// a round trip (an owner query, a timestamp) reads whatever arrived before its reply,
    /// and poll cannot see those events.
    func queuedEventCount() -> Int32 {
        guard !isBroken else { return 0 }
        return XQLength(handle)
    }

    /// Removes the next queued event; call only when `pendingEventCount() > 0`.
    func nextEvent() -> ServerEvent {
        guard !isBroken else { return .other }
        watchdog.arm()
        defer { watchdog.disarm() }
        return ServerEvent.receive { event in
            XNextEvent(handle, event)
            return true
        } ?? .other
    }

    /// Removes and returns the first PropertyNotify for `window`, reading the socket if
    /// needed; nil when there is none yet.
    func takePropertyChange(window: WindowID) -> ServerEvent.PropertyChange? {
        guard !isBroken else { return nil }
        watchdog.arm()
        defer { watchdog.disarm() }
        let event = ServerEvent.receive { event in
            XCheckTypedWindowEvent(handle, window.rawValue, PropertyNotify, event) != 0
        }
        guard case .propertyChange(let change)? = event else { return nil }
        return change
    }

    /// Sends buffered requests.
    func flush() {
        guard !isBroken else { return }
        watchdog.arm()
        defer { watchdog.disarm() }
        XFlush(handle)
    }

    /// Waits until the socket is readable or `milliseconds` pass.
    func waitUntilReadable(milliseconds: Int) {
        guard !isBroken else { return }
        var entry = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
        _ = poll(&entry, 1, Int32(clamping: max(milliseconds, 0)))
    }

    /// Runs `body`, which issues requests, then waits for the server to process them and
    /// throws the protocol errors they caused: the one place where recorded X errors turn
    /// into Swift errors (ICCCM §2.5: confirm a property write before announcing it).
    func checked(_ body: () -> Void) throws(ProtocolFailure) {
        guard !isBroken else { return }
        watchdog.arm()
        defer { watchdog.disarm() }
        let start = XNextRequest(handle)
        body()
        XSync(handle, False)
        let errors = ProtocolErrors.take(display: handle, fromSerial: start)
        if !errors.isEmpty { throw ProtocolFailure(records: errors) }
    }

    /// Drops recorded errors of requests nobody checked.
    ///
    /// Their effects are handled through events, such as DestroyNotify.
    func discardUncheckedErrors() {
        ProtocolErrors.discard(display: handle)
    }

    /// The largest request the server accepts, in bytes (BIG-REQUESTS if present).
    var maxRequestBytes: Int {
        guard !isBroken else { return 0 }
        let extended = XExtendedMaxRequestSize(handle)
        return (extended > 0 ? extended : XMaxRequestSize(handle)) * 4
    }

    // MARK: - Text properties

    /// COMPOUND_TEXT for valid UTF-8 `text` via Xlib, or nil when the locale cannot do it.
    ///
    /// NUL bytes separate list elements, as in a text property.
    func compoundText(fromUTF8 text: UnsafeRawBufferPointer) -> [UInt8]? {
        guard !isBroken, supportsCompoundText else { return nil }
        let parts = text.split(separator: 0, omittingEmptySubsequences: false)
        var strings: [UnsafeMutablePointer<CChar>?] = parts.map { part in
            let string = UnsafeMutablePointer<CChar>.allocate(capacity: part.count + 1)
            UnsafeMutableRawBufferPointer(start: string, count: part.count).copyBytes(from: part)
            string[part.count] = 0
            return string
        }
        defer {
            for (string, part) in zip(strings, parts) {
                guard let string else { continue }
                explicit_bzero(string, part.count)
                string.deallocate()
            }
        }
        var property = XTextProperty()
        let status = Xutf8TextListToTextProperty(
            handle, &strings, Int32(strings.count), XCompoundTextStyle, &property)
        defer {
            if let value = property.value {
                explicit_bzero(value, Int(property.nitems))
                XFree(value)
            }
        }
        // A positive status counts characters Xlib replaced with its default character.
        guard status >= 0 else { return nil }
        guard let value = property.value else { return [] }
        return [UInt8](UnsafeBufferPointer(start: value, count: Int(property.nitems)))
    }

    /// UTF-8 of a text property of type `encoding` (COMPOUND_TEXT, STRING, …) via Xlib.
    ///
    /// List elements are joined with NUL. Nil when Xlib cannot convert it.
    func utf8(fromTextProperty bytes: [UInt8], encoding: InternedAtom) -> [UInt8]? {
        guard !isBroken else { return nil }
        var copy = bytes
        return copy.withUnsafeMutableBufferPointer { buffer -> [UInt8]? in
            var property = XTextProperty(
                value: buffer.baseAddress, encoding: encoding.rawValue, format: 8, nitems: UInt(buffer.count))
            var list: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
            var count: Int32 = 0
            let status = Xutf8TextPropertyToTextList(handle, &property, &list, &count)
            defer { if let list { XFreeStringList(list) } }
            guard status >= 0, let list else { return nil }
            var result: [UInt8] = []
            for index in 0..<Int(count) {
                if index > 0 { result.append(0) }
                if let element = list[index] {
                    result.append(contentsOf: UnsafeRawBufferPointer(start: element, count: strlen(element)))
                }
            }
            return result
        }
    }
}
