// SPDX-License-Identifier: MIT
import CliptabCore

/// A clipboard that can paste into the window that has the input focus.
public protocol FocusPastePort: AnyObject {
    /// Puts `text` on the clipboard, sends the paste keystroke to the focused window,
    /// waits for the target to fetch the text (at most `timeoutMilliseconds`; 0 for the
    /// configured default), then restores the clipboard; `completion` runs from the loop.
    func pasteToFocus(
        _ text: String, isSecret: Bool, timeoutMilliseconds: Int,
        completion: @escaping (Result<FocusPasteOutcome, CliptabError>) -> Void)
}
