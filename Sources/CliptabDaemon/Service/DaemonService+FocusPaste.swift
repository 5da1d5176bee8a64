// SPDX-License-Identifier: MIT
import CliptabCore

extension DaemonService {
    /// The longest wait for the target's fetch a call may ask for, in milliseconds: a
    /// minute, as for `timeout_ms` in the file (a caller that waits longer than 25 s must
    /// raise its own D-Bus call timeout).
    public static let maxFocusPasteTimeout: UInt32 = 60_000

    /// Pastes a cell into the window that has the input focus (guarded by `copy`), then
    /// restores the clipboard; `completion` gets true when the target fetched the text,
    /// false when it did not within `timeoutMilliseconds` (0: the configured default).
    public func pasteToFocus(
        _ table: String, section: Int32, row: Int32, timeoutMilliseconds: UInt32,
        completion: @escaping (Result<Bool, Error>) -> Void
    ) throws {
        guard timeoutMilliseconds <= Self.maxFocusPasteTimeout else {
            throw CliptabError(
                .invalidArgument,
                "timeout_ms is \(timeoutMilliseconds); the longest wait is \(Self.maxFocusPasteTimeout) ms (0: the configured default)"
            )
        }
        let cell = try tables.cellForCopy(of: table, section: section, row: row, as: .copy)
        guard let paster = clipboard as? FocusPastePort else {
            throw CliptabError(.clipboardUnavailable, "this daemon's clipboard cannot send keystrokes")
        }
        let previousRow = clipboard.isOwned ? copiedRowID : 0
        paster.pasteToFocus(cell.text, isSecret: cell.isSecret, timeoutMilliseconds: Int(timeoutMilliseconds))
        {
            [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let outcome):
                for note in outcome.notes {
                    self.onNote("paste into the focused window (table \(table)): \(note)")
                }
                if !outcome.ownsClipboard {
                    self.clipboardChanged(owned: false, rowID: 0)
                } else if outcome.restoredOwnCopy {
                    self.clipboardChanged(owned: true, rowID: previousRow)
                } else {
                    // Another program's text is served again, or the pasted cell stays.
                    self.clipboardChanged(owned: true, rowID: outcome.restored ? 0 : cell.id)
                }
                completion(.success(outcome.delivered))
            case .failure(let error):
                completion(.failure(error))
            }
        }
    }
}
