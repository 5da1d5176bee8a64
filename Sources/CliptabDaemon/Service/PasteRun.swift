// SPDX-License-Identifier: MIT
import CliptabCore

/// One paste into the focused window, from its arrival to its reply; a fill is one run that
/// types its rows in turn (`fill`).
final class PasteRun {
    /// Where the paste is.
    enum Phase: Equatable {
        /// Waiting for its turn behind another paste.
        case queued
        /// Waiting for the injector to be able to type (the desktop's consent to the
        /// RemoteDesktop portal at the first paste).
        case preparing
        /// Reading what is on the clipboard now, to put it back afterwards.
        case readingPrevious
        /// The row is on the clipboard, its keys not sent yet: for a fill's next row, clipboard
        /// managers' reads of the new offer begin meanwhile and are not taken for the target's;
        /// for a Wayland window behind an X clipboard, the compositor's bridge learns of the
        /// new owner first (`awaitsBridge`).
        case offering
        /// The chord went out; waiting for the target to fetch the text.
        case waiting
        /// Answered.
        case done
    }

    /// What the clipboard held before the paste.
    enum Previous {
        /// A copy of this daemon's own.
        case own(HeldSelection)
        /// Another program's content, every format it offered.
        case other(SavedClipboard)
    }

    /// The text typed now: a fill's current row.
    var text: String
    var isSecret: Bool
    var rowID: UInt64
    let timeoutMilliseconds: Int
    /// The caller's unique bus name: its disconnect cancels the paste before it types.
    let caller: String?
    /// The window to give the focus back to before the chord (the one focused before a
    /// launcher ran), or nil for whichever has it.
    var window: UInt64?
    /// Left chords to send once the target fetched the text: the characters after a
    /// template's `{cursor}`.
    var caretLeft = 0
    /// The latest time the paste may begin; past it, it is dropped without typing.
    let startBy: UInt64
    let completion: (Result<FocusPasteResult, CliptabError>) -> Void
    var phase = Phase.queued
    var target: PasteTarget?
    var previous: Previous?
    /// The ownership of the pasted copy, once made.
    var stamp: OwnershipStamp?
    /// When the wait for the injector (`preparing`) or for the fetch (`waiting`) ends, or
    /// when a fill's offered row gets its keys (`offering`).
    var deadline: UInt64 = 0
    /// When the injector, ready later than at once, may type: after the consent dialog gave
    /// the focus back.
    var readyAt: UInt64?
    /// After a fetch: when the target has been quiet long enough to restore.
    var settleDeadline: UInt64?
    /// Offered on an X clipboard for a window the X server does not name (a Wayland window
    /// reached by the portal or the virtual keyboard): the keys wait until someone, the
    /// compositor's bridge of the two clipboards first, has asked the new owner for
    /// anything, or until the offer's deadline.
    var awaitsBridge = false
    var delivered = false
    /// Why the paste did not deliver, when it did not.
    var reason = ""
    var notes: [String] = []
    /// Set when the caller went away before the chord was sent: it is never sent (a fill
    /// types no further row).
    var cancelled = false
    /// The rows of a fill and where it is; nil for a paste of one text.
    var fill: FillPlan?

    init(
        text: String, isSecret: Bool, rowID: UInt64, timeoutMilliseconds: Int, caller: String?,
        startBy: UInt64,
        completion: @escaping (Result<FocusPasteResult, CliptabError>) -> Void
    ) {
        self.text = text
        self.isSecret = isSecret
        self.rowID = rowID
        self.timeoutMilliseconds = timeoutMilliseconds
        self.caller = caller
        self.startBy = startBy
        self.completion = completion
    }
}
