// SPDX-License-Identifier: MIT

/// What happened to the selections this service owns, in the order it happened; the owner
/// of the service takes them with `WaylandSelectionService.takeNotices()` after
/// `processEvents`.
public enum WaylandNotice: Equatable, Sendable {
    /// Another program took `selection` (the compositor cancelled our source); the token
    /// names the ownership that ended.
    case lost(WaylandSelectionName, WaylandOwnershipToken)
    /// A request (`send`) for a selection we own was served or refused.
    case transfer(WaylandTransfer)
}
