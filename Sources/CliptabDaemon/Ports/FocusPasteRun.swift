// SPDX-License-Identifier: MIT
import CliptabCore
import X11Selection

/// One paste into the focused window, from the read of the previous clipboard to the
/// reply.
final class FocusPasteRun {
    /// Where the paste is.
    enum Phase: Equatable {
        /// Waiting for its turn behind another paste.
        case queued
        /// Reading the text that will be restored.
        case readingPrevious
        /// The keystroke went out; waiting for the target to fetch the text.
        case waiting
        /// Finished and answered.
        case done
    }

    let text: String
    let isSecret: Bool
    let timeoutMilliseconds: Int
    let completion: (Result<FocusPasteOutcome, CliptabError>) -> Void
    var phase = Phase.queued
    var outcome = FocusPasteOutcome()
    /// The clipboard text to put back, whether it is a secret (a secret copy of ours, or
    /// marked by its owner with the password-manager hint), and whether it was ours.
    var previous: (text: [UInt8], isSecret: Bool, ownCopy: Bool)?
    /// The acquisition time of the pasted copy.
    var acquired = ServerTime.current
    /// The window the keystroke went to (its client fetches the text).
    var target = WindowID.none
    /// When the wait for the fetch ends.
    var deadline: UInt64 = 0
    /// After a fetch: when the target has been quiet long enough to restore.
    var settleDeadline: UInt64?

    init(
        text: String, isSecret: Bool, timeoutMilliseconds: Int,
        completion: @escaping (Result<FocusPasteOutcome, CliptabError>) -> Void
    ) {
        self.text = text
        self.isSecret = isSecret
        self.timeoutMilliseconds = timeoutMilliseconds
        self.completion = completion
    }
}
