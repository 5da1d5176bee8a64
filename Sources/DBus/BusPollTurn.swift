// SPDX-License-Identifier: MIT
import Glibc

/// One turn of a client's `poll()` loop: the one place where bus connections are driven
/// beside a program's own descriptors (an X or Wayland socket, a signalfd, standard output).
///
/// A turn dispatches what the connections already hold (a blocking call may have read
/// signals), waits in one `poll()` on their descriptors and `others`, lets libdbus read and
/// write on what is ready, runs its due timeouts, and dispatches what came, so that signal
/// handlers and reply handlers have run when it returns.
public enum BusPollTurn {
    /// Runs one turn over `connections` and `others`, whose `revents` it fills.
    ///
    /// It waits at most `timeoutMilliseconds` (-1: until something happens), less when
    /// libdbus has a timeout due sooner, and not at all while messages wait to be dispatched.
    /// With `reading` false the connections only write (a client that never reads its
    /// replies).
    ///
    /// Returns what `poll()` returned: below 0 (with `errno` set, `EINTR` for a signal)
    /// nothing was read or dispatched after the poll.
    @discardableResult
    public static func run(
        _ connections: [BusConnection], others: inout [pollfd], timeoutMilliseconds: Int32,
        reading: Bool = true
    ) -> Int32 {
        var timeout = timeoutMilliseconds
        func shorten(_ limit: Int32) { timeout = timeout < 0 ? limit : min(timeout, limit) }
        var descriptors: [pollfd] = []
        for connection in connections {
            if reading { connection.dispatchAll() }
            descriptors += connection.pollDescriptors(reading: reading)
            if let due = connection.nextTimeoutMilliseconds() { shorten(due) }
            // A handler's blocking call may have read messages that wait now.
            if reading && connection.hasMessagesToDispatch { shorten(0) }
        }
        let busCount = descriptors.count
        descriptors += others
        let ready = poll(&descriptors, nfds_t(descriptors.count), timeout)
        guard ready >= 0 else { return ready }
        others = Array(descriptors[busCount...])
        let polled = Array(descriptors[..<busCount])
        for connection in connections {
            connection.handle(polled)
            connection.handleExpiredTimeouts()
            if reading { connection.dispatchAll() }
        }
        return ready
    }

    /// Runs one turn over `connections` alone.
    @discardableResult
    public static func run(_ connections: [BusConnection], timeoutMilliseconds: Int32, reading: Bool = true)
        -> Int32
    {
        var none: [pollfd] = []
        return run(connections, others: &none, timeoutMilliseconds: timeoutMilliseconds, reading: reading)
    }
}
