// SPDX-License-Identifier: MIT

/// Tunables of a `SelectionService`; the defaults suit a desktop daemon.
public struct SelectionConfiguration: Sendable, Equatable {
    /// How long an incremental (INCR) transfer to a requestor may stall before it is dropped.
    public var incrementalTimeoutMilliseconds: Int
    /// The largest chunk of an INCR transfer, and the size above which INCR is used; capped
    /// by the server's maximum request size.
    public var incrementalChunkBytes: Int
    /// The bound on waiting for the server timestamp when taking ownership.
    public var timestampTimeoutMilliseconds: Int
    /// The most X events one `processEvents(now:)` handles before returning to the loop.
    public var maximumEventsPerCall: Int

    /// Makes a configuration; every value has a default.
    public init(
        incrementalTimeoutMilliseconds: Int = 5000, incrementalChunkBytes: Int = 262_144,
        timestampTimeoutMilliseconds: Int = 1000, maximumEventsPerCall: Int = 256
    ) {
        self.incrementalTimeoutMilliseconds = incrementalTimeoutMilliseconds
        self.incrementalChunkBytes = incrementalChunkBytes
        self.timestampTimeoutMilliseconds = timestampTimeoutMilliseconds
        self.maximumEventsPerCall = maximumEventsPerCall
    }
}
