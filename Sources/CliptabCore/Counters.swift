// SPDX-License-Identifier: MIT

/// The id counters of the store, persisted with every change that uses them, so that an
/// id is never given twice, not even after a crash.
public struct Counters: Equatable, Sendable {
    /// The next row id to give.
    public var nextRowID: UInt64
    /// The next section id to give.
    public var nextSectionID: UInt64
    /// The next table id to give.
    public var nextTableID: UInt64

    /// Makes counters.
    public init(nextRowID: UInt64 = 1, nextSectionID: UInt64 = 1, nextTableID: UInt64 = 1) {
        self.nextRowID = nextRowID
        self.nextSectionID = nextSectionID
        self.nextTableID = nextTableID
    }
}
