// SPDX-License-Identifier: MIT
import CliptabDaemon
import Glibc
import Posix
import TestSupport
import Testing

/// The X connection through which a Wayland session types into XWayland's windows is a
/// source of the daemon's loop: its events are handled as they come, not on the next paste.
@Suite(.serialized)
struct XWaylandSourceTests {
    /// The X server going away is noticed by the loop's turns alone, without a paste: the
    /// descriptor is no longer polled and a retry is scheduled.
    @Test func serverGoneIsNoticedByTheLoop() throws {
        let display = try VirtualDisplay()
        let injector = XWaylandKeyInjector(
            display: display.display, settings: ClipboardSettings(), clock: MonotonicClock.milliseconds)
        // No connection before the first paste (connecting may start XWayland).
        #expect(injector.pollDescriptor == nil && injector.nextDeadline() == nil)
        _ = try? injector.focusedTarget()
        #expect(injector.pollDescriptor != nil)
        let gone = MonotonicClock.milliseconds()
        display.stop()
        // The loop's turns: process, then poll the source's descriptor.
        let noticed = eventually(within: 20_000) {
            injector.process(now: MonotonicClock.milliseconds())
            guard let fd = injector.pollDescriptor else { return true }
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            _ = poll(&entry, 1, 100)
            return false
        }
        #expect(noticed)
        let retry = injector.nextDeadline()
        #expect(retry.map { $0 > gone } == true, "next deadline \(String(describing: retry))")
    }
}
