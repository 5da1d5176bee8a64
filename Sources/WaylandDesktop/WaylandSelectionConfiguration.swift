// SPDX-License-Identifier: MIT

/// Tunables of a `WaylandSelectionService`; the defaults suit a desktop daemon.
public struct WaylandSelectionConfiguration: Sendable, Equatable {
    /// How long a transfer to a reader may go without progress before it is dropped (the
    /// deadline restarts whenever the reader takes bytes).
    public var transferTimeoutMilliseconds: Int
    /// The most transfers to readers in flight at once; more requests are closed unanswered
    /// (readers are anonymous, so no bound per program is possible).
    public var maximumTransfers: Int
    /// The most bytes written into one reader's pipe per attempt.
    public var transferChunkBytes: Int
    /// The longest any one blocking round trip may wait for the compositor, connecting
    /// included; past it the service is broken.
    public var compositorTimeoutMilliseconds: Int
    /// The most reads of other programs' selections in flight at once.
    public var maximumPendingReads: Int
    /// The most MIME types kept of one offer, and the longest type name kept.
    public var maximumOfferedTypes: Int

    /// Makes a configuration; every value has a default.
    public init(
        transferTimeoutMilliseconds: Int = 5000, maximumTransfers: Int = 16, transferChunkBytes: Int = 65536,
        compositorTimeoutMilliseconds: Int = 900, maximumPendingReads: Int = 16,
        maximumOfferedTypes: Int = 256
    ) {
        self.transferTimeoutMilliseconds = transferTimeoutMilliseconds
        self.maximumTransfers = maximumTransfers
        self.transferChunkBytes = transferChunkBytes
        self.compositorTimeoutMilliseconds = compositorTimeoutMilliseconds
        self.maximumPendingReads = maximumPendingReads
        self.maximumOfferedTypes = maximumOfferedTypes
    }
}
