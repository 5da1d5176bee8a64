// SPDX-License-Identifier: MIT
import CWayland
import Glibc

/// The connection to the compositor (a `wl_display`), and the one place where the errors of
/// libwayland-client become `WaylandError`s.
///
/// Reading follows libwayland's discipline for an outside `poll()` loop: `prepareRead`
/// (dispatching what is queued until the queue is empty), `flush`, poll the descriptor, then
/// `readEvents` or `cancelRead`, then `dispatchPending`.
final class DisplayConnection {
    /// The `wl_display`.
    let handle: OpaquePointer
    /// The socket, for poll.
    let fileDescriptor: Int32
    /// The first failure, after which nothing is read or sent.
    private(set) var failure: WaylandError?
    /// True between a successful `prepareRead` and its `readEvents` or `cancelRead`.
    private(set) var readPrepared = false

    private init(handle: OpaquePointer) {
        self.handle = handle
        fileDescriptor = wl_display_get_fd(handle)
    }

    /// Connects to the display `name` (a socket name in `XDG_RUNTIME_DIR`, or an absolute
    /// path), or to `$WAYLAND_DISPLAY` when nil.
    static func connect(_ name: String?) throws(WaylandError) -> DisplayConnection {
        let display: OpaquePointer?
        if let name { display = wl_display_connect(name) } else { display = wl_display_connect(nil) }
        guard let display else { throw .connectFailed(display: name ?? "$WAYLAND_DISPLAY", code: errno) }
        return DisplayConnection(handle: display)
    }

    deinit {
        if readPrepared { wl_display_cancel_read(handle) }
        wl_display_disconnect(handle)
    }

    /// True once the connection failed.
    var isBroken: Bool { failure != nil }

    /// Records why the connection failed in `call`, from the display's error state.
    func fail(in call: String) {
        guard failure == nil else { return }
        let saved = errno
        let code = wl_display_get_error(handle)
        if code == EPROTO {
            var interface: UnsafePointer<wl_interface>?
            var objectID: UInt32 = 0
            let protocolCode = wl_display_get_protocol_error(handle, &interface, &objectID)
            let name = interface.map { String(cString: $0.pointee.name) } ?? "an unknown interface"
            failure = .protocolError(interface: name, code: protocolCode, objectID: objectID)
        } else {
            failure = .connectionLost(call: call, code: code != 0 ? code : saved)
        }
    }

    /// Records a failure that is not the display's own (a timeout, a removed seat).
    func fail(_ error: WaylandError) {
        if failure == nil { failure = error }
    }

    /// Dispatches the queued events to their listeners; false when the connection failed.
    @discardableResult
    func dispatchPending() -> Bool {
        guard failure == nil else { return false }
        if wl_display_dispatch_pending(handle) < 0 {
            fail(in: "wl_display_dispatch_pending")
            return false
        }
        return true
    }

    /// Announces the intent to read, dispatching the queued events until the queue is empty
    /// (as libwayland requires); false when the connection failed.
    @discardableResult
    func prepareRead() -> Bool {
        guard failure == nil else { return false }
        if readPrepared { return true }
        while wl_display_prepare_read(handle) != 0 {
            if !dispatchPending() { return false }
        }
        readPrepared = true
        return true
    }

    /// Withdraws a prepared read.
    func cancelRead() {
        if readPrepared { wl_display_cancel_read(handle) }
        readPrepared = false
    }

    /// Reads what the socket has into the queue (never blocks: libwayland reads with
    /// MSG_DONTWAIT); ends the prepared read.
    func readEvents() {
        guard readPrepared else { return }
        readPrepared = false
        if wl_display_read_events(handle) < 0 { fail(in: "wl_display_read_events") }
    }

    /// Sends the queued requests; false when some are left because the socket is full (poll
    /// for writing then) or the connection failed.
    @discardableResult
    func flush() -> Bool {
        guard failure == nil else { return false }
        if wl_display_flush(handle) >= 0 { return true }
        if errno == EAGAIN { return false }
        fail(in: "wl_display_flush")
        return false
    }

    /// Whether the socket is readable (and writable) now or within `milliseconds`.
    func poll(milliseconds: Int32, writable: Bool = false) -> (readable: Bool, writable: Bool) {
        var entry = pollfd(
            fd: fileDescriptor, events: Int16(POLLIN) | (writable ? Int16(POLLOUT) : 0), revents: 0)
        var ready: Int32
        repeat { ready = Glibc.poll(&entry, 1, milliseconds) } while ready < 0 && errno == EINTR
        guard ready > 0 else { return (false, false) }
        // Hang-up and errors count as readable: the read then reports them.
        let readable = entry.revents & (Int16(POLLIN) | Int16(POLLHUP) | Int16(POLLERR)) != 0
        return (readable, entry.revents & Int16(POLLOUT) != 0)
    }
}
