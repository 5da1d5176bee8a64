// SPDX-License-Identifier: MIT

/// What this daemon serves on one selection: the ownership, what it holds, and for whom.
struct HeldSelection {
    /// The backend's ownership.
    let stamp: OwnershipStamp
    /// The row copied (0: a section, another program's content put back, or none).
    let rowID: UInt64
    /// True when it is offered with the password-manager hint and cleared after a while.
    let secret: Bool
    /// The content, so that a paste can put it back.
    let content: SelectionContent
}
