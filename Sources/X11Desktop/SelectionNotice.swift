// SPDX-License-Identifier: MIT

/// What happened to the selections this service owns, in the order it happened; the owner
/// of the service takes them with `SelectionService.takeNotices()` after `processEvents`.
public enum SelectionNotice: Equatable, Sendable {
    /// Another client took `selection` (a SelectionClear that is not stale; not a `release`,
    /// nor the display's loss).
    case lost(SelectionName)
    /// A request for a selection we own was answered, or an incremental text transfer
    /// completed (see `SelectionTransfer`).
    case transfer(SelectionTransfer)
}
