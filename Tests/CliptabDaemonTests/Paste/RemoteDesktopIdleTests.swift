// SPDX-License-Identifier: MIT
import CliptabDaemon
import Testing

/// When the RemoteDesktop portal's session is closed for want of pastes
/// (`[paste_to_focus] portal_idle_ms`), on a virtual clock.
struct RemoteDesktopIdleTests {
    /// Closed exactly `portal_idle_ms` after the last use, not a millisecond before; each
    /// use starts the time again.
    @Test func closedAtTheIdleTimeAfterTheLastUse() {
        var idle = RemoteDesktopIdle()
        #expect(idle.deadline(idleMilliseconds: 30_000, canRestore: true) == nil)
        idle.used(at: 1_000)
        #expect(idle.deadline(idleMilliseconds: 30_000, canRestore: true) == 31_000)
        #expect(idle.verdict(now: 30_999, idleMilliseconds: 30_000, canRestore: true, busy: false) == .wait)
        idle.used(at: 20_000)
        #expect(idle.verdict(now: 31_000, idleMilliseconds: 30_000, canRestore: true, busy: false) == .wait)
        #expect(idle.verdict(now: 49_999, idleMilliseconds: 30_000, canRestore: true, busy: false) == .wait)
        #expect(idle.verdict(now: 50_000, idleMilliseconds: 30_000, canRestore: true, busy: false) == .close)
        // Closed: no deadline until the next session's use.
        #expect(idle.deadline(idleMilliseconds: 30_000, canRestore: true) == nil)
        #expect(idle.verdict(now: 90_000, idleMilliseconds: 30_000, canRestore: true, busy: false) == .wait)
    }

    /// A reload's new `portal_idle_ms` counts from the last use.
    @Test func newIdleTimeTakesEffect() {
        var idle = RemoteDesktopIdle()
        idle.used(at: 0)
        #expect(idle.verdict(now: 5_000, idleMilliseconds: 30_000, canRestore: true, busy: false) == .wait)
        #expect(idle.verdict(now: 5_000, idleMilliseconds: 5_000, canRestore: true, busy: false) == .close)
    }

    /// Busy at the deadline (a paste's keys in flight): not closed, and the time starts again.
    @Test func busySessionIsNotClosed() {
        var idle = RemoteDesktopIdle()
        idle.used(at: 0)
        #expect(idle.verdict(now: 1_000, idleMilliseconds: 1_000, canRestore: true, busy: true) == .wait)
        #expect(idle.deadline(idleMilliseconds: 1_000, canRestore: true) == 2_000)
        #expect(idle.verdict(now: 2_000, idleMilliseconds: 1_000, canRestore: true, busy: false) == .close)
    }

    /// Where the consent cannot be restored (version 1): kept, said once, and no deadline
    /// after that (the loop does not wake for it again).
    @Test func keptOnceWhereTheConsentCannotComeBack() {
        var idle = RemoteDesktopIdle()
        idle.used(at: 0)
        #expect(idle.verdict(now: 999, idleMilliseconds: 1_000, canRestore: false, busy: false) == .wait)
        #expect(idle.verdict(now: 1_000, idleMilliseconds: 1_000, canRestore: false, busy: false) == .keep)
        #expect(idle.deadline(idleMilliseconds: 1_000, canRestore: false) == nil)
        idle.used(at: 5_000)
        #expect(idle.verdict(now: 9_000, idleMilliseconds: 1_000, canRestore: false, busy: false) == .wait)
    }
}
