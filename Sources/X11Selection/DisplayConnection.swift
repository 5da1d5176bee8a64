// SPDX-License-Identifier: MIT
import CX11
import Glibc

/// X protocol errors that a checked batch of requests caused.
struct ProtocolFailure: Error, CustomStringConvertible {
    /// The errors, in the order the server reported them.
    let records: [ProtocolErrorRecord]

    /// True when one of the errors names a window that does not exist (any more).
    var isBadWindow: Bool { records.contains { $0.errorCode == UInt8(BadWindow) } }

    /// "X error 3 (request 18, resource 0x…)", one per error.
    var description: String {
        records.map { record in
            "X error \(record.errorCode) (request \(record.requestCode),"
                + " resource 0x\(String(record.resource, radix: 16)))"
        }.joined(separator: "; ")
    }
}

/// What reading a window property found.
enum PropertyContents {
    /// The property does not exist (or the window is gone).
    case missing
    /// The property holds more than the allowed bytes; it was left as it is.
    case tooLarge(byteCount: Int)
    /// The property's value.
    case value(PropertyValue)
}

/// A window property's value, as Xlib returns it in memory.
struct PropertyValue {
    /// The property's type atom.
    let type: UInt
    /// 8, 16 or 32.
    let format: Int32
    /// The items as Xlib lays them out: format 32 items are C `long`s (8 bytes on LP64).
    let bytes: [UInt8]
    /// The number of items.
    let itemCount: Int

    /// The items of a format-32 property (atoms, integers), empty for other formats.
    var longs: [UInt] {
        guard format == 32 else { return [] }
        return bytes.withUnsafeBytes { raw in
            (0..<itemCount).map {
                raw.loadUnaligned(fromByteOffset: $0 * MemoryLayout<UInt>.size, as: UInt.self)
            }
        }
    }
}

/// The connection to an X server: owns the `Display*` and is the only code that calls Xlib.
///
/// Every method is a no-op (or returns "nothing") once the connection is broken: after an
/// I/O error Xlib flags the display dead, and `XNextEvent` on an empty queue would crash.
final class DisplayConnection {
    /// The `Display*`; internal for this class's extensions in other files (the keyboard).
    let handle: OpaquePointer
    /// The display name, such as `:0`.
    let name: String
    /// The socket to poll for `POLLIN`.
    let fileDescriptor: Int32
    /// True once Xlib reported an I/O error (the server went away).
    private(set) var isBroken = false
    /// True when Xlib can convert between UTF-8 and COMPOUND_TEXT in the current locale.
    private(set) var supportsCompoundText = false

    private init(handle: OpaquePointer, name: String) {
        self.handle = handle
        self.name = name
        self.fileDescriptor = XConnectionNumber(handle)
    }

    /// Connects to `requested` (nil: `$DISPLAY`), installs the error handlers and prepares
    /// the locale for COMPOUND_TEXT.
    static func open(_ requested: String?) throws(SelectionError) -> DisplayConnection {
        let name: String
        if let requested {
            name = requested
        } else if let value = getenv("DISPLAY"), value.pointee != 0 {
            name = String(cString: value)
        } else {
            throw .noDisplay
        }
        ProtocolErrors.installHandlers()
        guard let handle = XOpenDisplay(name) else { throw .cannotConnect(display: name) }
        let connection = DisplayConnection(handle: handle, name: name)
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
        ProtocolErrors.discard(display: handle)
        XCloseDisplay(handle)
    }

    // MARK: - Atoms and windows

    /// Interns `names` in one round trip; 0 for each on a broken connection.
    func internAtoms(_ names: [String]) -> [UInt] {
        var atoms = [UInt](repeating: 0, count: names.count)
        guard !isBroken, !names.isEmpty else { return atoms }
        var pointers = names.map { strdup($0) }
        defer { for pointer in pointers { free(pointer) } }
        XInternAtoms(handle, &pointers, Int32(names.count), False, &atoms)
        return atoms
    }

    /// The name of `atom`, or nil when it has none (or the connection is broken).
    func atomName(_ atom: UInt) -> String? {
        guard !isBroken, atom != 0, let pointer = XGetAtomName(handle, atom) else { return nil }
        defer { XFree(pointer) }
        return String(cString: pointer)
    }

    /// Creates an unmapped 1×1 window on the default root, listening for property changes.
    func createHiddenWindow(title: String) -> UInt {
        guard !isBroken else { return 0 }
        let window = XCreateSimpleWindow(handle, XDefaultRootWindow(handle), -10, -10, 1, 1, 0, 0, 0)
        XSelectInput(handle, window, PropertyChangeMask)
        XStoreName(handle, window, title)
        // WM_CLASS is "instance\0class\0"; it names the window in xprop and xwininfo -tree.
        let windowClass = Array("cliptab\0Cliptab\0".utf8)
        let classAtom = internAtoms(["WM_CLASS"])[0]
        changeProperty(window, classAtom, type: UInt(XA_STRING), bytes: windowClass)
        return window
    }

    /// Destroys `window`.
    func destroyWindow(_ window: UInt) {
        guard !isBroken, window != 0 else { return }
        XDestroyWindow(handle, window)
        XFlush(handle)
    }

    /// Sets this client's event mask on `window` (replacing the previous mask).
    func selectInput(_ window: UInt, mask: Int) {
        guard !isBroken else { return }
        XSelectInput(handle, window, mask)
    }

    // MARK: - Properties

    /// Replaces (or, with `append`, extends) a format-8 property.
    func changeProperty(
        _ window: UInt, _ property: UInt, type: UInt, bytes: UnsafeRawBufferPointer, append: Bool = false
    ) {
        guard !isBroken else { return }
        let pointer = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
        XChangeProperty(
            handle, window, property, type, 8, append ? PropModeAppend : PropModeReplace, pointer,
            Int32(bytes.count))
    }

    /// Replaces a format-8 property with `bytes`.
    func changeProperty(_ window: UInt, _ property: UInt, type: UInt, bytes: [UInt8]) {
        bytes.withUnsafeBytes { changeProperty(window, property, type: type, bytes: $0) }
    }

    /// Replaces a format-32 property with `longs`; Xlib takes format-32 data as C `long`s.
    func changeProperty(_ window: UInt, _ property: UInt, type: UInt, longs: [UInt]) {
        guard !isBroken else { return }
        _ = longs.withUnsafeBytes { raw in
            XChangeProperty(
                handle, window, property, type, 32, PropModeReplace,
                raw.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(longs.count))
        }
    }

    /// Deletes `property` of `window`.
    func deleteProperty(_ window: UInt, _ property: UInt) {
        guard !isBroken else { return }
        XDeleteProperty(handle, window, property)
    }

    /// Reads the whole of `property` of `window` in bounded pieces, refusing values larger
    /// than `maxBytes`; deletes the property afterwards (also when refused) if `delete`.
    func readProperty(_ window: UInt, _ property: UInt, maxBytes: Int, delete: Bool) -> PropertyContents {
        guard !isBroken else { return .missing }
        var bytes: [UInt8] = []
        var type: UInt = 0
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
                handle, window, property, offset, pieceUnits, False, UInt(AnyPropertyType), &actualType,
                &actualFormat, &items, &remaining, &data)
            defer { if let data { XFree(data) } }
            guard status == Success, actualType != UInt(None) else { return .missing }
            if offset == 0 {
                type = actualType
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

    /// Asks the server to make `window` the owner of `selection` as of `time` (`None` gives
    /// it up).
    func setSelectionOwner(_ selection: UInt, _ window: UInt, time: UInt) {
        guard !isBroken else { return }
        XSetSelectionOwner(handle, selection, window, time)
    }

    /// The current owner window of `selection` (0 for none, or when broken).
    func selectionOwner(_ selection: UInt) -> UInt {
        guard !isBroken else { return 0 }
        return XGetSelectionOwner(handle, selection)
    }

    /// Asks the owner of `selection` to convert it to `target` into `property` of `requestor`.
    func convertSelection(_ selection: UInt, target: UInt, property: UInt, requestor: UInt, time: UInt) {
        guard !isBroken else { return }
        XConvertSelection(handle, selection, target, property, requestor, time)
    }

    /// Sends the ICCCM reply to a SelectionRequest: property 0 (`None`) refuses it.
    func sendSelectionNotify(
        requestor: UInt, selection: UInt, target: UInt, property: UInt, time: UInt
    ) {
        guard !isBroken else { return }
        var event = XEvent()
        event.xselection = XSelectionEvent(
            type: SelectionNotify, serial: 0, send_event: True, display: handle, requestor: requestor,
            selection: selection, target: target, property: property, time: time)
        XSendEvent(handle, requestor, False, NoEventMask, &event)
    }

    // MARK: - Events and errors

    /// Flushes and returns how many events Xlib has queued (reading what the socket holds).
    func pendingEventCount() -> Int32 {
        guard !isBroken else { return 0 }
        return XPending(handle)
    }

    /// Removes the next queued event; call only when `pendingEventCount() > 0`.
    func nextEvent() -> XEvent {
        var event = XEvent()
        guard !isBroken else { return event }
        XNextEvent(handle, &event)
        return event
    }

    /// Removes and returns the first event of `type` for `window`, reading the socket if
    /// needed; nil when there is none yet.
    func takeEvent(window: UInt, type: Int32) -> XEvent? {
        guard !isBroken else { return nil }
        var event = XEvent()
        return XCheckTypedWindowEvent(handle, window, type, &event) != 0 ? event : nil
    }

    /// Sends buffered requests.
    func flush() {
        guard !isBroken else { return }
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
    func utf8(fromTextProperty bytes: [UInt8], encoding: UInt) -> [UInt8]? {
        guard !isBroken else { return nil }
        var copy = bytes
        return copy.withUnsafeMutableBufferPointer { buffer -> [UInt8]? in
            var property = XTextProperty(
                value: buffer.baseAddress, encoding: encoding, format: 8, nitems: UInt(buffer.count))
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
