// SPDX-License-Identifier: MIT
import CX11
import Glibc
import Posix

/// One `XOpenDisplay` run on a thread of its own, waited for with a bound.
///
/// `XOpenDisplay` cannot be given a deadline: a server that accepts the connection but
/// never answers (stopped with SIGSTOP, or a TCP display gone quiet) keeps it waiting for
/// the setup reply forever. The caller waits a bounded time; an attempt still under way
/// then is kept, and its result taken by a later attempt, so that there is never more than
/// one thread per display waiting. libX11 ≥ 1.8 initialises its thread support on its own,
/// so the opening thread may run beside Xlib calls on other displays — but while it waits
/// for the server it holds Xlib's global lock, so nothing that takes that lock (setting
/// error handlers, closing a display that used an extension, opening another display) may
/// run meanwhile: `DisplayConnection.open` makes no Xlib call while an attempt is under
/// way, and the daemon closes a broken connection before it tries again.
final class DisplayOpener: @unchecked Sendable {
    /// The display name being opened.
    let name: String
    // Every field below is guarded by `mutex`.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var finished = false
    private var abandoned = false
    /// The `Display*` opened, until taken.
    private var opened: OpaquePointer?

    private init(name: String) {
        self.name = name
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Starts opening `name` on a detached thread; nil when no thread could be made.
    static func start(_ name: String) -> DisplayOpener? {
        let opener = DisplayOpener(name: name)
        let context = Unmanaged.passRetained(opener).toOpaque()
        var thread = pthread_t()
        let created = pthread_create(
            &thread, nil,
            { context in
                guard let context else { return nil }
                Unmanaged<DisplayOpener>.fromOpaque(context).takeRetainedValue().run()
                return nil
            }, context)
        guard created == 0 else {
            Unmanaged<DisplayOpener>.fromOpaque(context).release()
            return nil
        }
        pthread_detach(thread)
        return opener
    }

    /// Waits up to `milliseconds` for the attempt to end; true when it has.
    func wait(milliseconds: Int) -> Bool {
        let due = MonotonicClock.nanoseconds() + UInt64(max(milliseconds, 0)) * 1_000_000
        var until = timespec(tv_sec: Int(due / 1_000_000_000), tv_nsec: Int(due % 1_000_000_000))
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while !finished {
            if pthread_cond_timedwait(condition, mutex, &until) == ETIMEDOUT { break }
        }
        return finished
    }

    /// The `Display*` of an ended attempt (nil when it failed); the caller owns it.
    func take() -> OpaquePointer? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        let result = opened
        opened = nil
        return result
    }

    /// Gives the attempt up: a display it opened (now or later) is closed again.
    func abandon() {
        pthread_mutex_lock(mutex)
        abandoned = true
        let result = finished ? opened : nil
        opened = nil
        pthread_mutex_unlock(mutex)
        if let result { XCloseDisplay(result) }
    }

    private func run() {
        let result = XOpenDisplay(name)
        pthread_mutex_lock(mutex)
        finished = true
        let unwanted = abandoned
        if !unwanted { opened = result }
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
        if unwanted, let result { XCloseDisplay(result) }
    }
}
