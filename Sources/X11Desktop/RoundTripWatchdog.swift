// SPDX-License-Identifier: MIT
import Glibc
import Posix

/// Bounds how long one call into Xlib may wait for the X server.
///
/// Xlib waits for a reply (XSync, XGetSelectionOwner, XInternAtoms, XGetWindowProperty…)
/// in `_XReply` with no timeout, and a write to a full socket blocks too: a stopped server,
/// or a TCP display gone quiet, would freeze the whole single-threaded daemon. The caller
/// arms the watchdog around every Xlib call; when one call lasts longer than the bound, a
/// thread of its own shuts the socket down (`shutdown(2)`, the descriptor stays open and
/// owned by Xlib). The blocked read then sees end-of-file, Xlib takes its I/O error path,
/// and the connection's exit handler marks it broken — the same path as a server that
/// died. Calls that finish in time cost two uncontended mutex operations.
final class RoundTripWatchdog: @unchecked Sendable {
    // Every field below is guarded by `mutex`; the class is Sendable only for the thread.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private let fileDescriptor: Int32
    private let timeoutMilliseconds: Int
    /// How many `arm()` calls are not yet matched by `disarm()` (calls nest).
    private var depth = 0
    /// When the outermost armed call must have ended, in `CLOCK_MONOTONIC` nanoseconds.
    private var deadline: UInt64?
    /// True while the thread waits without a deadline; only then does `arm()` wake it.
    private var idle = false
    private var stopping = false
    private var firedFlag = false
    private var thread = pthread_t()
    private var running = false

    /// Watches calls on `fileDescriptor`, allowing each `timeoutMilliseconds` (at least 1).
    init(fileDescriptor: Int32, timeoutMilliseconds: Int) {
        self.fileDescriptor = fileDescriptor
        self.timeoutMilliseconds = max(timeoutMilliseconds, 1)
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        // Timed waits on the monotonic clock: a wall-clock step must not fire or delay it.
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
        // The thread holds a reference until it ends (in `stop()`).
        let context = Unmanaged.passRetained(self).toOpaque()
        let created = pthread_create(
            &thread, nil,
            { context in
                guard let context else { return nil }
                let watchdog = Unmanaged<RoundTripWatchdog>.fromOpaque(context).takeRetainedValue()
                watchdog.watch()
                return nil
            }, context)
        if created == 0 {
            running = true
        } else {
            // No thread: calls stay unbounded, as without a watchdog; release its reference.
            Unmanaged<RoundTripWatchdog>.fromOpaque(context).release()
        }
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// True once the watchdog shut the socket down because a call overran its bound.
    var fired: Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return firedFlag
    }

    /// The bound on one call, in milliseconds.
    var bound: Int { timeoutMilliseconds }

    /// Starts timing a call (nested calls share the outermost one's deadline).
    func arm() {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        depth += 1
        guard depth == 1 else { return }
        deadline = MonotonicClock.nanoseconds() + UInt64(timeoutMilliseconds) * 1_000_000
        // A thread waiting for an earlier deadline wakes then and sees this later one.
        if idle { pthread_cond_signal(condition) }
    }

    /// Ends timing the call started by the matching `arm()`.
    func disarm() {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        depth = max(depth - 1, 0)
        if depth == 0 { deadline = nil }
    }

    /// Ends the thread and waits for it; call before the socket is closed, so that it is
    /// never shut down once the descriptor number may belong to something else.
    func stop() {
        pthread_mutex_lock(mutex)
        stopping = true
        pthread_cond_signal(condition)
        pthread_mutex_unlock(mutex)
        if running {
            pthread_join(thread, nil)
            running = false
        }
    }

    private func watch() {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while !stopping {
            guard let due = deadline else {
                idle = true
                pthread_cond_wait(condition, mutex)
                idle = false
                continue
            }
            if MonotonicClock.nanoseconds() >= due {
                deadline = nil
                if !firedFlag {
                    firedFlag = true
                    // Both directions: a blocked read sees end-of-file, a blocked write EPIPE.
                    shutdown(fileDescriptor, Int32(SHUT_RDWR))
                }
                continue
            }
            var until = timespec(tv_sec: Int(due / 1_000_000_000), tv_nsec: Int(due % 1_000_000_000))
            pthread_cond_timedwait(condition, mutex, &until)
        }
    }
}
