// SPDX-License-Identifier: MIT
import Glibc

/// A timer that ends the process with status 69 if connecting to the bus hangs: libdbus's
/// connect and Hello wait up to 25 s on a bus that accepts the socket but never answers.
enum ConnectWatchdog {
    /// What the process says when the bus does not answer in time.
    ///
    /// Written by the `SIGALRM` handler, and for a silent bus noticed at the first call
    /// (`CLIFailure`). A constant, since a signal handler may not allocate (and formatting
    /// one would cost every call).
    static let message: StaticString = """
        cliptab: the session bus did not answer within the timeout (--timeout, default 5 s).
        Start cliptabd with 'systemctl --user start cliptabd', or run 'cliptabd' in your desktop session.

        """

    /// Starts the timer.
    static func arm(milliseconds: Int32) {
        signal(SIGALRM) { _ in
            // Only async-signal-safe calls here.
            _ = write(2, ConnectWatchdog.message.utf8Start, ConnectWatchdog.message.utf8CodeUnitCount)
            _exit(ExitStatus.unavailable)
        }
        var timer = itimerval()
        timer.it_value.tv_sec = Int(milliseconds / 1000)
        timer.it_value.tv_usec = Int(milliseconds % 1000) * 1000
        setitimer(__itimer_which_t(ITIMER_REAL.rawValue), &timer, nil)
    }

    /// Stops the timer.
    static func disarm() {
        var timer = itimerval()
        setitimer(__itimer_which_t(ITIMER_REAL.rawValue), &timer, nil)
    }
}
