// SPDX-License-Identifier: MIT

/// Which X client a window or a selection belongs to.
extension SelectionService {
    /// The X client that made `window`: the base its resource ids share, so a program's
    /// hidden selection window and its focused window give the same value.
    public func client(of window: WindowID) -> UInt64 {
        UInt64(window.rawValue & ~connection.resourceMask)
    }

    /// The X client that owns `CLIPBOARD_MANAGER` (a clipboard manager), or nil when none
    /// does; one round trip.
    public func clipboardManagerClient() -> UInt64? {
        guard !connection.isBroken else { return nil }
        let owner = connection.selectionOwner(atoms.clipboardManager)
        return owner == .none ? nil : client(of: owner)
    }
}
