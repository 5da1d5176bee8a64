// SPDX-License-Identifier: MIT

/// The paste under way and those waiting: one at a time, since each owns the clipboard
/// from its copy to its restore.
struct FocusPasteQueue {
    /// The paste under way, if any.
    var current: FocusPasteRun?
    /// The pastes waiting, oldest first.
    var waiting: [FocusPasteRun] = []

    /// The next time the paste under way needs attention without X input.
    var nextDeadline: UInt64? {
        guard let run = current, run.phase == .waiting else { return nil }
        return min(run.deadline, run.settleDeadline ?? run.deadline)
    }
}
