// SPDX-License-Identifier: MIT
import CX11

/// The process-wide X error handler and the errors it recorded.
///
/// Xlib keeps one error handler per process, and its default handler calls `exit` on any
/// error; a requestor window that vanishes mid-transfer (BadWindow) must not end the daemon.
/// The handler only records and returns 0: it must not call Xlib, which holds the display
/// lock while it runs. The recorded errors are turned into Swift errors by
/// `DisplayConnection.checked(_:)` and nowhere else.
enum ProtocolErrors {
    /// Errors recorded and not yet collected, oldest first.
    ///
    /// `nonisolated(unsafe)` because Xlib calls the handler through a C function pointer
    /// that cannot carry context. It is safe here: every display of this module is used from
    /// one thread (the loop's), and Xlib calls the handler on the thread that made the call
    /// that read the error, with the display lock held.
    nonisolated(unsafe) private static var records: [ProtocolErrorRecord] = []

    /// True once the handlers are installed.
    nonisolated(unsafe) private static var installed = false

    /// Installs the recording error handler and the quiet I/O error handler, once.
    ///
    /// Only the first call reaches Xlib: setting a handler takes Xlib's global lock, which an
    /// `XOpenDisplay` still waiting for a stopped server holds (see `DisplayOpener`).
    static func installHandlers() {
        guard !installed else { return }
        installed = true
        XSetErrorHandler { display, event in
            guard let event else { return 0 }
            ProtocolErrors.record(ServerEvent.errorRecord(display: display, event.pointee))
            // The return value is ignored by Xlib.
            return 0
        }
        // The default I/O error handler prints to standard error and then calls exit(1)
        // before the per-display exit handler is ever reached; this library never logs, and
        // what happens after an I/O error is decided by `DisplayConnection`'s exit handler.
        XSetIOErrorHandler { _ in 0 }
    }

    /// Records one error; called by the error handler only.
    private static func record(_ record: ProtocolErrorRecord) {
        // Bounded, so that a flood of errors nobody collects cannot grow without limit.
        if records.count >= 1024 { records.removeFirst(records.count - 1023) }
        records.append(record)
    }

    /// Removes and returns the errors of `display` for requests with serial ≥ `serial`;
    /// older errors of that display are dropped (nobody waits for them any more).
    static func take(display: OpaquePointer, fromSerial serial: UInt) -> [ProtocolErrorRecord] {
        var taken: [ProtocolErrorRecord] = []
        records.removeAll { record in
            guard record.display == Int(bitPattern: display) else { return false }
            if record.serial >= serial { taken.append(record) }
            return true
        }
        return taken
    }

    /// Drops every recorded error of `display`.
    static func discard(display: OpaquePointer) {
        records.removeAll { $0.display == Int(bitPattern: display) }
    }
}
