// SPDX-License-Identifier: MIT
import CliptabCore

/// The selections a desktop offers: the clipboard (Ctrl+C, Ctrl+V) and the primary
/// selection (select, middle-click).
public enum ClipboardSelection: Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// `CLIPBOARD`.
    case clipboard
    /// `PRIMARY`.
    case primary

    /// The name as X11 spells it, for messages.
    public var description: String { self == .clipboard ? "CLIPBOARD" : "PRIMARY" }
}

/// What a selection backend can do, as it declares it: the policy asks this, never the
/// backend's type.
public struct SelectionCapabilities: Equatable, Sendable {
    /// The backend can own the primary selection.
    public var primary: Bool
    /// Served reads name the program that read (X11 names the requestor's window; Wayland
    /// readers are anonymous).
    public var namesReaders: Bool
    /// Why the backend may not see the current owner, for the user; nil when it sees all.
    ///
    /// X11 through an XWayland that gives X11 programs a Wayland program's copy only while
    /// an X11 window has the focus (wlroots, KWin) sees an older owner then: reads for the
    /// user are refused rather than answered with a stale text.
    public var blindSpot: String?
    /// Readers are told apart only by the keystrokes sent before their reads (Wayland's
    /// marks), so a clipboard manager's read of a new offer that begins after a chord looks
    /// like the target's.
    public var readersByKeystrokes: Bool

    /// Makes a declaration.
    public init(
        primary: Bool, namesReaders: Bool, blindSpot: String? = nil, readersByKeystrokes: Bool = false
    ) {
        self.primary = primary
        self.namesReaders = namesReaders
        self.blindSpot = blindSpot
        self.readersByKeystrokes = readersByKeystrokes
    }
}

/// One ownership of a selection by this daemon, as the backend numbers them: tells one
/// copy from the next, even when both hold the same text.
public struct OwnershipStamp: Hashable, Sendable {
    /// The backend's number; increasing, never reused.
    public let rawValue: UInt64

    /// Makes a stamp.
    public init(rawValue: UInt64) { self.rawValue = rawValue }
}

/// Another program's clipboard content as a backend read it, every format it offered, to
/// be served again after a paste: opaque to the policy, which only hands it back.
public protocol SavedClipboard: AnyObject {
    /// The bytes kept, all formats together.
    var byteCount: Int { get }
    /// The number of formats kept.
    var formatCount: Int { get }
    /// True when the owner marked it with the password-manager hint `secret`.
    var isMarkedSecret: Bool { get }
}

/// What this daemon puts on a selection.
public enum SelectionContent {
    /// A text, offered in every text format.
    case text(String)
    /// Another program's content, in the formats it had.
    case saved(SavedClipboard)
}

/// Something that happened to the daemon's selections, as the backend saw it.
public enum SelectionEvent: Equatable, Sendable {
    /// The ownership `stamp` of `selection` ended: another program took it, or the display
    /// or compositor went away.
    case lost(ClipboardSelection, OwnershipStamp)
    /// A program read the ownership `stamp` of `selection`; `reader` identifies it when the
    /// backend `namesReaders`; `textDelivered` when it now holds the whole text; `origin`
    /// (for a text delivered) who read and when the read began, as a sequence counts pastes
    /// (nil: `reader`, begun now).
    case served(
        ClipboardSelection, OwnershipStamp, reader: UInt64?, textDelivered: Bool, origin: ReadOrigin? = nil)
}

/// Who read a text of ours and when the read began, for the count of a sequence's pastes
/// (`SequencePasteRule`).
public struct ReadOrigin: Equatable, Sendable {
    /// The reading program where the backend can tell programs apart; nil on Wayland, where
    /// readers are anonymous.
    public var client: UInt64?
    /// When the read began (monotonic milliseconds).
    public var startedAt: UInt64

    /// Makes an origin.
    public init(client: UInt64?, startedAt: UInt64) {
        self.client = client
        self.startedAt = startedAt
    }
}

/// A clipboard backend: owns selections with content, serves them, reads what other
/// programs offer, and reports what happened.
///
/// X11 is one; Wayland's data-control another.
///
/// Errors are `CliptabError`s the service can pass on (`ClipboardUnavailable`,
/// `ClipboardEmpty`, `LimitExceeded`). Completions run later, from `process(now:)`, or at
/// once when the backend can answer at once.
public protocol SelectionBackend: AnyObject {
    /// What it can do.
    var capabilities: SelectionCapabilities { get }
    /// The backend in words, for `cliptab status` and the log: which one, and where.
    var summary: String { get }
    /// The settings in force (read bounds and timeouts); a reload puts new ones here.
    var settings: ClipboardSettings { get set }

    /// Owns `selection` with `content`; returns once the owner is verifiably this daemon.
    ///
    /// With `replacing`, takes the selection only while that ownership of ours is still
    /// the current one, so a copy another program made since stays: throws
    /// `ClipboardUnavailable` then.
    func own(
        _ selection: ClipboardSelection, _ content: SelectionContent, secret: Bool, replacing: OwnershipStamp?
    )
        throws -> OwnershipStamp
    /// Gives `selection` up if the ownership `stamp` is still the current one.
    func release(_ selection: ClipboardSelection, _ stamp: OwnershipStamp)
    /// The current ownership of `selection` by this daemon, or nil when it is not ours.
    func currentStamp(_ selection: ClipboardSelection) -> OwnershipStamp?
    /// Reads the best text of `selection` and its owner's password mark.
    func readText(
        _ selection: ClipboardSelection, completion: @escaping (Result<ClipboardText, CliptabError>) -> Void)
    /// Reads every format another program offers for `selection`, at most `maxBytes` in all.
    func readSaved(
        _ selection: ClipboardSelection, maxBytes: Int,
        completion: @escaping (Result<SavedClipboard, CliptabError>) -> Void)
    /// At exit: hands the clipboard's content to a running clipboard manager, if it is ours
    /// and not secret (a bounded wait).
    func handOver()

    /// The descriptor the loop polls, while there is a live connection.
    var pollDescriptor: Int32? { get }
    /// Handles what is pending; returns what happened to the daemon's selections, in order.
    func process(now: UInt64) -> [SelectionEvent]
    /// The next time `process(now:)` is due without input.
    func nextDeadline() -> UInt64?
    /// True when `reader` (as `served` names it) is a clipboard manager that saves every new
    /// owner (X11: it owns `CLIPBOARD_MANAGER`). It may cost a round trip: asked only while a
    /// sequence counts pastes, never on a plain paste's path.
    func isClipboardManager(_ reader: UInt64) -> Bool
}

extension SelectionBackend {
    /// Readers are anonymous or managers unknown: none is one.
    public func isClipboardManager(_ reader: UInt64) -> Bool { false }
}
