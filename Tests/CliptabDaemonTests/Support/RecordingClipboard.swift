// SPDX-License-Identifier: MIT
import CliptabCore
import CliptabDaemon

/// A clipboard in memory for in-process tests of the daemon's use cases: it records every
/// copy and clear, can refuse to be taken (as a clipboard without a display does), and
/// offers a text of "another program" for pastes.
///
/// Self-contained: it needs only the `ClipboardPort` protocol, so any test target that
/// links `CliptabDaemon` can take this file as it is.
final class RecordingClipboard: ClipboardPort {
    /// One copy made: its text and whether it came from a secret table.
    struct Copy: Equatable {
        /// The text put on the clipboard.
        let text: String
        /// True when the copy is to be cleared after `secretClearMilliseconds`.
        let isSecret: Bool
    }

    /// Every copy taken, oldest first.
    private(set) var copies: [Copy] = []
    /// How often `clear()` was called.
    private(set) var clears = 0
    /// How often the clipboard was read.
    private(set) var reads = 0
    /// When set, `copy` throws `ClipboardUnavailable` with this reason and records nothing.
    var refusal: String?
    /// What a read gets while this daemon does not own the clipboard: another program's
    /// text (with its password mark), or an error (by default, an empty clipboard).
    var offered: Result<ClipboardText, CliptabError> = .failure(
        CliptabError(.clipboardEmpty, "nothing is on the clipboard"))
    /// The settings in force (a reload puts new ones here).
    var settings: ClipboardSettings
    /// True while the last copy is held.
    private(set) var isOwned = false

    /// Makes an empty clipboard with `settings`.
    init(settings: ClipboardSettings = ClipboardSettings()) { self.settings = settings }

    /// Records the copy, or throws `ClipboardUnavailable` when `refusal` is set.
    func copy(_ text: String, isSecret: Bool) throws {
        if let refusal { throw CliptabError(.clipboardUnavailable, refusal) }
        copies.append(Copy(text: text, isSecret: isSecret))
        isOwned = true
    }

    /// Gives the copy up.
    func clear() {
        clears += 1
        isOwned = false
    }

    /// Completes at once: with the last copy (marked when secret) while owned, otherwise
    /// with `offered`.
    func read(completion: @escaping (Result<ClipboardText, CliptabError>) -> Void) {
        reads += 1
        if isOwned, let last = copies.last {
            completion(.success(ClipboardText(text: last.text, isMarkedSecret: last.isSecret)))
        } else {
            completion(offered)
        }
    }

    /// Makes another program the owner, offering `text`, marked with the password-manager
    /// hint when `markedSecret`: this daemon's copy is gone.
    func takenByAnotherProgram(offering text: String, markedSecret: Bool = false) {
        isOwned = false
        offered = .success(ClipboardText(text: text, isMarkedSecret: markedSecret))
    }
}
