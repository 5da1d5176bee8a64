// SPDX-License-Identifier: MIT
import DBus
import Glibc
import Posix

/// The daemon's one thread and one `poll()`: the D-Bus watches and timeouts, the signal
/// descriptor, and any other sources, with nothing done by time-based polling.
public final class EventLoop {
    private let bus: BusConnection
    private let signals: SignalChannel
    /// Other sources, polled beside the bus (the clipboard's X connection).
    private let sources: [PollSource]
    /// Asked after every dispatch; true ends the loop.
    private let shouldStop: () -> Bool
    /// Run for SIGHUP.
    private let reload: () -> Void
    /// The daemon's clock (milliseconds), which the sources' deadlines are on.
    private let clock: () -> UInt64
    /// The least time between two trims of the heap, in milliseconds.
    static let trimInterval: UInt64 = 1000
    /// The most reply bytes queued for the bus before the loop stops reading new calls.
    ///
    /// The daemon has one connection, to the bus daemon, which reads it at once and queues
    /// replies per client (up to its `max_outgoing_bytes`, 1e9 on a session bus; then it drops
    /// them): a client that never reads costs the bus memory, not the daemon. This cap bounds
    /// the daemon's own queue when the bus daemon itself is slow to read: past it, no new
    /// call is read or dispatched until the queue drains below it. Every reply, however small,
    /// waits behind the whole queue, so the cap is also the latency every client pays for one
    /// client's large replies: kept small (a larger single reply still goes out whole).
    public let maximumQueuedReplyBytes = 4 << 20
    private var lastTrim: UInt64 = 0
    private var workedSinceTrim = false

    /// Makes a loop over `bus`, `signals` and `sources`, on `clock`, that ends when
    /// `shouldStop` says so and runs `reload` for SIGHUP.
    public init(
        bus: BusConnection, signals: SignalChannel, sources: [PollSource],
        clock: @escaping () -> UInt64, shouldStop: @escaping () -> Bool,
        reload: @escaping () -> Void
    ) {
        self.clock = clock
        self.bus = bus
        self.signals = signals
        self.sources = sources
        self.shouldStop = shouldStop
        self.reload = reload
    }

    /// Runs until a stop signal or the loss of the bus.
    ///
    /// Each turn: dispatch what the bus delivered, serving one waiting call per client (so one
    /// client's backlog delays only that client, and the other descriptors are served between
    /// rounds), let every source process what it holds (Xlib queues events that poll cannot
    /// see), then poll (at once while calls wait).
    public func run() -> LoopExit {
        while true {
            let backlogged = bus.outgoingBytes > maximumQueuedReplyBytes
            if !backlogged { bus.dispatchRound() }
            let now = clock()
            for source in sources { source.process(now: now) }
            // No flush here: replies go out as the socket takes them (libdbus writes at once
            // when it can, and the write watch asks poll for the rest). A flush blocks, and
            // it reads while it waits: calls it read would wait in libdbus's queue, unseen
            // by poll, until something else arrived.
            if !bus.isConnected { return .busLost }
            if shouldStop() { return .stopped }

            var descriptors = bus.pollDescriptors(reading: !backlogged)
            let busCount = descriptors.count
            descriptors.append(pollfd(fd: signals.fileDescriptor, events: Int16(POLLIN), revents: 0))
            var sourceIndexes: [(Int, PollSource)] = []
            for source in sources {
                if let fd = source.pollDescriptor {
                    sourceIndexes.append((descriptors.count, source))
                    descriptors.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0))
                }
            }
            let beforePoll = clock()
            var timeout = trimHeapIfDue(now: beforePoll, timeout: pollTimeout(now: beforePoll))
            // Calls wait in the per-client queues, or something the sources did (a blocking
            // round trip) read calls.
            if bus.hasMessagesToDispatch && !backlogged { timeout = 0 }
            let ready = poll(&descriptors, nfds_t(descriptors.count), timeout)
            if ready < 0 && errno != EINTR { return .busLost }

            if ready > 0 {
                workedSinceTrim = true
                bus.handle(Array(descriptors[..<busCount]))
                if descriptors[busCount].revents != 0 {
                    while let signal = try? signals.next() {
                        if signal == SIGHUP {
                            reload()
                        } else {
                            // Finish what the bus already delivered, then stop.
                            bus.dispatchAll()
                            bus.flush()
                            return .signal(signal)
                        }
                    }
                }
                let now = clock()
                for (index, source) in sourceIndexes where descriptors[index].revents != 0 {
                    source.process(now: now)
                }
            }
            bus.handleExpiredTimeouts()
        }
    }

    /// Gives freed heap memory back to the system at most once per `trimInterval`, within
    /// that interval after any work; returns the poll timeout, shortened until the next trim
    /// when one is pending.
    ///
    /// Decoding one large message (up to the bus's 128 MiB) makes many small allocations;
    /// glibc keeps the freed ones resident, and a single hostile call would otherwise leave
    /// the daemon hundreds of megabytes larger for good.
    private func trimHeapIfDue(now: UInt64, timeout: Int32) -> Int32 {
        guard workedSinceTrim else { return timeout }
        if now >= lastTrim + Self.trimInterval {
            Memory.trim()
            lastTrim = now
            workedSinceTrim = false
            return timeout
        }
        let wait = Int32(lastTrim + Self.trimInterval - now)
        return timeout < 0 ? wait : min(timeout, wait)
    }

    /// Milliseconds until the nearest deadline of the bus or a source; -1 for none.
    private func pollTimeout(now: UInt64) -> Int32 {
        var timeout: Int64 = -1
        if let busTimeout = bus.nextTimeoutMilliseconds(now: now) { timeout = Int64(busTimeout) }
        for source in sources {
            if let deadline = source.nextDeadline() {
                let wait = deadline > now ? Int64(deadline - now) : 0
                timeout = timeout < 0 ? wait : min(timeout, wait)
            }
        }
        return Int32(clamping: timeout)
    }
}
