// SPDX-License-Identifier: MIT
import Glibc

/// While a launcher runs, a SIGTERM, SIGINT or SIGHUP that ends `cliptab` ends the launcher
/// first.
///
/// The launcher runs in a process group of its own, so the signal that stops `cliptab pick`
/// (its caller giving up, a terminal's Ctrl+C, the session closing) never reaches it. Without
/// this, the launcher's window stayed open, waiting for a choice nobody would act on.
enum LauncherStop {
    /// The process group of the running launcher (its pid); 0 while none runs.
    nonisolated(unsafe) private static var group: pid_t = 0

    /// The signals that end `cliptab` and so must end its launcher.
    private static let stopping = [SIGTERM, SIGINT, SIGHUP]

    /// From now until `disarm()`, the signals stop the launcher in process group `pid`, then
    /// end `cliptab` as they would have.
    static func arm(for pid: pid_t) {
        group = pid
        for number in stopping { signal(number, handler) }
    }

    /// The launcher has ended: the signals act as by default again.
    static func disarm() {
        group = 0
        for number in stopping { signal(number, SIG_DFL) }
    }

    /// Stops the launcher's group, then lets the signal end this process.
    ///
    /// The signal is blocked while its handler runs, so the one raised here is delivered with
    /// the default action once the handler returns. Only async-signal-safe calls.
    private static let handler: @convention(c) (Int32) -> Void = { number in
        let launcher = group
        if launcher > 0 { kill(-launcher, SIGTERM) }
        signal(number, SIG_DFL)
        raise(number)
    }
}
