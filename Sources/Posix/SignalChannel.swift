// SPDX-License-Identifier: MIT
import CPosix
import Glibc

/// Delivers chosen signals as readable events on a file descriptor, so that one `poll()` loop can wait for
/// them beside its other sources.
///
/// The corresponding C function is `signalfd`.
public final class SignalChannel {
    /// The descriptor to poll for `POLLIN`.
    public let fileDescriptor: Int32

    private init(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
    }

    /// Blocks `signals` for the process (so they queue instead of running a handler) and
    /// returns a channel that reports them.
    public static func make(signals: [Int32]) throws -> SignalChannel {
        var mask = sigset_t()
        sigemptyset(&mask)
        for signal in signals { sigaddset(&mask, signal) }
        // Blocked in the calling (main) thread before any other thread exists, so every
        // thread inherits the mask and the signals reach only the descriptor.
        guard sigprocmask(SIG_BLOCK, &mask, nil) == 0 else { throw SystemCallError.current("sigprocmask") }
        let fd = CPosix_signalfd(&mask)
        guard fd >= 0 else { throw SystemCallError.current("signalfd") }
        return SignalChannel(fileDescriptor: fd)
    }

    /// The next pending signal, or nil when none is queued.
    public func next() throws -> Int32? {
        let signal = CPosix_signalfd_read(fileDescriptor)
        if signal < 0 { throw SystemCallError.current("read(signalfd)") }
        return signal == 0 ? nil : signal
    }

    deinit {
        close(fileDescriptor)
    }
}

/// Process-wide signal settings that daemons and tests need at start.
public enum SignalMask {
    /// Unblocks every signal in the calling thread.
    ///
    /// A parent that spawned us from a thread with a blocked mask (Foundation's `Process` copies it) would
    /// otherwise leave us deaf to SIGTERM.
    public static func clearForCurrentThread() {
        var empty = sigset_t()
        sigemptyset(&empty)
        sigprocmask(SIG_SETMASK, &empty, nil)
    }

    /// Ignores SIGPIPE, so that writing to a closed pipe or socket returns EPIPE instead of
    /// ending the process.
    public static func ignoreBrokenPipe() {
        signal(SIGPIPE, SIG_IGN)
    }
}
