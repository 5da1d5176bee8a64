// SPDX-License-Identifier: MIT

/// A client's copy of a table's structure kept only from events, as UIKit keeps its view:
/// ids and texts it cannot know from an event stay nil until filled from the service.
struct ReplicaSection: Equatable {
    /// The section's id, once known.
    var id: UInt64?
    /// The titles, once known (nil after a `SectionChanged`).
    var titles: String?
    /// Each row's id and text, once known.
    var rows: [ReplicaRow]
}
