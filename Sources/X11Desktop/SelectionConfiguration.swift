// SPDX-License-Identifier: MIT

/// Tunables of a `SelectionService`; the defaults suit a desktop daemon.
public struct SelectionConfiguration: Sendable, Equatable {
    /// How long an incremental (INCR) transfer to a requestor may stall before it is dropped.
    public var incrementalTimeoutMilliseconds: Int
    /// The largest chunk of an INCR transfer, and the size above which INCR is used; capped
    /// by the server's maximum request size.
    public var incrementalChunkBytes: Int
    /// The bound on waiting for the server timestamp when taking ownership; like
    /// `serverTimeoutMilliseconds`, under a second, so that the calls of others wait less.
    public var timestampTimeoutMilliseconds: Int
    /// The longest any one call may wait for the X server, connecting included; past it the
    /// connection is dropped as lost (see `RoundTripWatchdog`).
    public var serverTimeoutMilliseconds: Int
    /// The most INCR transfers to requestors in flight at once; past it (or past
    /// `maximumTransfersPerClient` for one X client) a large reply is refused.
    public var maximumTransfers: Int
    /// The most INCR transfers in flight to the windows of one X client.
    public var maximumTransfersPerClient: Int
    /// The most (target, property) pairs of one MULTIPLE request converted; later pairs
    /// are answered as failed (their property replaced by None, ICCCM §2.6.2).
    public var maximumMultiplePairs: Int
    /// The most `readText` calls waiting at once; more fail at once with `.busy`.
    public var maximumPendingReads: Int
    /// The most X events one `processEvents(now:)` handles before returning to the loop.
    public var maximumEventsPerCall: Int

    /// Makes a configuration; every value has a default.
    public init(
        incrementalTimeoutMilliseconds: Int = 5000, incrementalChunkBytes: Int = 262_144,
        timestampTimeoutMilliseconds: Int = 900, maximumEventsPerCall: Int = 256,
        serverTimeoutMilliseconds: Int = 900, maximumPendingReads: Int = 16, maximumTransfers: Int = 128,
        maximumTransfersPerClient: Int = 16, maximumMultiplePairs: Int = 64
    ) {
        self.incrementalTimeoutMilliseconds = incrementalTimeoutMilliseconds
        self.incrementalChunkBytes = incrementalChunkBytes
        self.timestampTimeoutMilliseconds = timestampTimeoutMilliseconds
        self.maximumEventsPerCall = maximumEventsPerCall
        self.serverTimeoutMilliseconds = serverTimeoutMilliseconds
        self.maximumPendingReads = maximumPendingReads
        self.maximumTransfers = maximumTransfers
        self.maximumTransfersPerClient = maximumTransfersPerClient
        self.maximumMultiplePairs = maximumMultiplePairs
    }
}
