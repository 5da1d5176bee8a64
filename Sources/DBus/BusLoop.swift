// SPDX-License-Identifier: MIT
internal import CDBus
import Glibc
import Posix

/// The watches and timeouts libdbus asks a connection's main loop to look after.
///
/// libdbus calls the add/remove/toggle functions with the connection lock held, so they only
/// record what they are given here; every call back into libdbus happens later, from the loop.
final class BusLoopState {
    /// One timeout and the monotonic time (ms) it next fires at.
    private struct Timer {
        let timeout: OpaquePointer
        var deadline: UInt64
    }

    /// The watches libdbus added and has not removed (borrowed: libdbus owns them).
    private var watches: [OpaquePointer] = []
    /// The timeouts libdbus added and has not removed (borrowed: libdbus owns them).
    private var timers: [Timer] = []

    /// Makes an empty state.
    init() {}

    /// Installs this state's watch and timeout functions on `connection`.
    func install(on connection: OpaquePointer) throws {
        let data = Unmanaged.passUnretained(self).toOpaque()
        let watchesSet = dbus_connection_set_watch_functions(
            connection,
            { watch, data in
                guard let watch, let data else { return 0 }
                Unmanaged<BusLoopState>.fromOpaque(data).takeUnretainedValue().watches.append(watch)
                return 1
            },
            { watch, data in
                guard let watch, let data else { return }
                Unmanaged<BusLoopState>.fromOpaque(data).takeUnretainedValue().watches.removeAll {
                    $0 == watch
                }
            },
            // Enabled flags are read again whenever the descriptors are built.
            nil, data, nil)
        let timeoutsSet = dbus_connection_set_timeout_functions(
            connection,
            { timeout, data in
                guard let timeout, let data else { return 0 }
                let state = Unmanaged<BusLoopState>.fromOpaque(data).takeUnretainedValue()
                state.timers.append(Timer(timeout: timeout, deadline: BusLoopState.deadline(of: timeout)))
                return 1
            },
            { timeout, data in
                guard let timeout, let data else { return }
                Unmanaged<BusLoopState>.fromOpaque(data).takeUnretainedValue().timers.removeAll {
                    $0.timeout == timeout
                }
            },
            { timeout, data in
                guard let timeout, let data else { return }
                // A timeout that is enabled again starts a fresh interval, possibly a new one.
                let state = Unmanaged<BusLoopState>.fromOpaque(data).takeUnretainedValue()
                for index in state.timers.indices where state.timers[index].timeout == timeout {
                    state.timers[index].deadline = BusLoopState.deadline(of: timeout)
                }
            },
            data, nil)
        guard watchesSet != 0, timeoutsSet != 0 else {
            throw BusError.noMemory("installing the main-loop functions")
        }
    }

    /// Removes this state's functions from `connection` (libdbus removes every watch first).
    func uninstall(from connection: OpaquePointer) {
        dbus_connection_set_watch_functions(connection, nil, nil, nil, nil, nil)
        dbus_connection_set_timeout_functions(connection, nil, nil, nil, nil, nil)
        watches.removeAll()
        timers.removeAll()
    }

    /// The time (ms) an interval started now ends at.
    private static func deadline(of timeout: OpaquePointer) -> UInt64 {
        MonotonicClock.milliseconds() + UInt64(max(0, dbus_timeout_get_interval(timeout)))
    }

    /// One `pollfd` per descriptor with an enabled watch, asking for what the watches want.
    func pollDescriptors() -> [pollfd] {
        var result: [pollfd] = []
        for watch in watches where dbus_watch_get_enabled(watch) != 0 {
            let descriptor = dbus_watch_get_unix_fd(watch)
            let flags = dbus_watch_get_flags(watch)
            var events: Int16 = 0
            if flags & DBUS_WATCH_READABLE.rawValue != 0 { events |= Int16(POLLIN) }
            if flags & DBUS_WATCH_WRITABLE.rawValue != 0 { events |= Int16(POLLOUT) }
            if let index = result.firstIndex(where: { $0.fd == descriptor }) {
                result[index].events |= events
            } else {
                result.append(pollfd(fd: descriptor, events: events, revents: 0))
            }
        }
        return result
    }

    /// Hands the events `poll` reported to the watches of those descriptors; a readable watch
    /// is handled again while its socket holds more, `wantsMore()` holds, and fewer than
    /// `readSliceBytes` (counted as libdbus's 4 KiB per handling) were read.
    func handle(_ polled: [pollfd], readSliceBytes: Int = 0, wantsMore: () -> Bool = { false }) {
        for entry in polled where entry.revents != 0 {
            // Handling one watch can add or remove others: work on a copy and skip any that
            // libdbus removed meanwhile (handling a removed watch is undefined).
            let candidates = watches.filter { dbus_watch_get_unix_fd($0) == entry.fd }
            for watch in candidates where watches.contains(watch) && dbus_watch_get_enabled(watch) != 0 {
                let wanted = dbus_watch_get_flags(watch)
                var flags: UInt32 = 0
                if wanted & DBUS_WATCH_READABLE.rawValue != 0 && entry.revents & Int16(POLLIN) != 0 {
                    flags |= DBUS_WATCH_READABLE.rawValue
                }
                if wanted & DBUS_WATCH_WRITABLE.rawValue != 0 && entry.revents & Int16(POLLOUT) != 0 {
                    flags |= DBUS_WATCH_WRITABLE.rawValue
                }
                if entry.revents & Int16(POLLHUP) != 0 { flags |= DBUS_WATCH_HANGUP.rawValue }
                if entry.revents & Int16(POLLERR | POLLNVAL) != 0 { flags |= DBUS_WATCH_ERROR.rawValue }
                if flags != 0 { dbus_watch_handle(watch, flags) }
                guard flags & DBUS_WATCH_READABLE.rawValue != 0, flags & DBUS_WATCH_HANGUP.rawValue == 0
                else {
                    continue
                }
                var budget = readSliceBytes - Self.bytesPerHandling
                while budget > 0 && watches.contains(watch) && dbus_watch_get_enabled(watch) != 0
                    && wantsMore() && Self.isReadable(entry.fd)
                {
                    dbus_watch_handle(watch, DBUS_WATCH_READABLE.rawValue)
                    budget -= Self.bytesPerHandling
                }
            }
        }
    }

    /// What libdbus's socket transport reads per handling: two reads of its 2 KiB iteration.
    static let bytesPerHandling = 4096

    /// True when `descriptor` has something to read now (a zero-timeout `poll`).
    private static func isReadable(_ descriptor: Int32) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) > 0 && entry.revents & Int16(POLLIN) != 0
    }

    /// Milliseconds until the next enabled timeout fires (0 if one is due), nil if none.
    func nextTimeoutMilliseconds(now: UInt64) -> Int32? {
        let deadlines = timers.filter { dbus_timeout_get_enabled($0.timeout) != 0 }.map(\.deadline)
        guard let earliest = deadlines.min() else { return nil }
        return earliest <= now ? 0 : Int32(clamping: earliest - now)
    }

    /// Fires every enabled timeout whose deadline has passed and starts its next interval.
    func handleExpiredTimeouts(now: UInt64) {
        let due = timers.filter { $0.deadline <= now && dbus_timeout_get_enabled($0.timeout) != 0 }.map(
            \.timeout)
        for timeout in due where timers.contains(where: { $0.timeout == timeout }) {
            for index in timers.indices where timers[index].timeout == timeout {
                timers[index].deadline = now + UInt64(max(0, dbus_timeout_get_interval(timeout)))
            }
            dbus_timeout_handle(timeout)
        }
    }
}
