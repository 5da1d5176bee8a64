// SPDX-License-Identifier: MIT
import CliptabCore

extension ClipboardService {
    /// The longest wait for the target's fetch a call may ask for, in milliseconds: a
    /// minute, as for `timeout_ms` in the file (a caller that waits longer than 25 s must
    /// raise its own D-Bus call timeout).
    public static let maxFocusPasteTimeout: UInt32 = 60_000

    /// Pastes a cell into the window that has the input focus (guarded by `copy`), then
    /// puts the clipboard back; `completion` gets the result: delivered, or why not.
    ///
    /// `caller` is the caller's unique bus name: should it leave the bus before the paste
    /// types, the paste never types. `timeoutMilliseconds` 0 is the configured default.
    /// `window` (from `GetFocusedWindow`) is given the focus first; a window gone is said.
    /// A template is filled in with `inputs` first; after a delivered paste the caret is
    /// moved back to its `{cursor}`.
    public func pasteToFocus(
        _ table: String, section: Int32, row: Int32, timeoutMilliseconds: UInt32, caller: String?,
        window: UInt64? = nil, inputs: [String: String] = [:],
        completion: @escaping (Result<FocusPasteResult, Error>) -> Void
    ) throws {
        guard timeoutMilliseconds <= Self.maxFocusPasteTimeout else {
            throw CliptabError(
                .invalidArgument,
                "timeout_ms is \(timeoutMilliseconds); the longest wait is \(Self.maxFocusPasteTimeout) ms (0: the configured default)"
            )
        }
        let cell = try tables.cellForUse(of: table, section: section, row: row, as: .copy)
        // Refused before any clipboard read, as before templates: nothing can type.
        try clipboard.checkCanPaste()
        let start = { [weak self] (expansion: TemplateExpansion) throws in
            try self?.clipboard.pasteToFocus(
                expansion.text, isSecret: expansion.isSecret, rowID: cell.id,
                timeoutMilliseconds: Int(timeoutMilliseconds), caller: caller, window: window,
                caretLeft: expansion.charactersAfterCursor ?? 0
            ) { result in
                if case .success(let outcome) = result {
                    var notes = outcome.notes
                    if !outcome.reason.isEmpty { notes.insert(outcome.reason, at: 0) }
                    for note in notes {
                        Log.line("paste into the focused window (table \(table)): \(note)")
                    }
                }
                completion(result.mapError { $0 })
            }
        }
        // Filled in at once (no clipboard to read), a paste that cannot begin throws here, as
        // before templates (a full queue is LimitExceeded at once); later, it completes so.
        var filledAtOnce: Result<TemplateExpansion, Error>?
        var isCalling = true
        expand(cell, inputs: inputs) { expanded in
            if isCalling { return filledAtOnce = expanded }
            do { try start(try expanded.get()) } catch { completion(.failure(error)) }
        }
        isCalling = false
        if let filledAtOnce { try start(try filledAtOnce.get()) }
    }
}
