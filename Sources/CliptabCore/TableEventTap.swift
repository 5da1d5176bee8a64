// SPDX-License-Identifier: MIT

/// Keeps the events a `TableService` announces, for code that reads them afterwards (the
/// randomized model's runner, tests): made first, its `record` is the service's `announce`.
public final class TableEventTap {
    /// The events recorded since the last `clear()`, in order.
    public private(set) var events: [TableEvent] = []

    /// Makes an empty tap.
    public init() {}

    /// Records one announced change (the service's `announce`).
    public func record(_ event: TableEvent, _ catalog: Catalog) { events.append(event) }

    /// Forgets the events recorded so far.
    public func clear() { events = [] }
}
