// SPDX-License-Identifier: MIT
import CX11

/// Giving the input focus back to a window remembered earlier: a launcher that grabs the
/// keyboard, or sets the focus to PointerRoot, leaves no focused window behind when it
/// exits, so a paste chosen in it goes to the window focused before it started.
extension SelectionService {
    /// The window that has the input focus now (with the focus following the pointer: the
    /// top-level window under it), to give it the focus again later; nil when none has it.
    public func currentFocus() -> WindowID? {
        focusedWindow()?.window
    }

    /// Gives the input focus to `window`; false when it is gone or cannot take the focus
    /// (unmapped), which the server says by an error.
    public func refocus(_ window: WindowID) -> Bool {
        guard !connection.isBroken, window != .none, connection.tree(of: window) != nil else {
            connection.discardUncheckedErrors()
            return false
        }
        do {
            try connection.checked { connection.setInputFocus(window) }
        } catch {
            return false
        }
        return true
    }
}

extension DisplayConnection {
    /// `XSetInputFocus` to `window`, reverting to its parent should it go away, at the
    /// server's current time.
    func setInputFocus(_ window: WindowID) {
        // RevertToParent (2) and CurrentTime (0) from X.h.
        _ = withUnsafeHandle { XSetInputFocus($0, window.rawValue, 2, 0) }
    }
}
