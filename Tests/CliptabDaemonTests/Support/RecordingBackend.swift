// SPDX-License-Identifier: MIT
import CliptabCore
import CliptabDaemon
import KeyChords

/// A selection backend in memory for in-process tests of the daemon's clipboard rules: it
/// records every ownership and release, can refuse to be taken (as a backend without a
/// display does), offers "another program's" content, and lets a test play the programs
/// that read or take the clipboard.
final class RecordingBackend: SelectionBackend {
    /// One copy made: its text and whether it came from a secret table.
    struct Copy: Equatable {
        /// The text put on the clipboard.
        let text: String
        /// True when the copy carries the password-manager hint.
        let isSecret: Bool
    }

    /// Another program's content, as `readSaved` hands it over.
    final class Saved: SavedClipboard {
        /// The formats by name.
        let formats: [String: [UInt8]]
        /// The owner's password mark.
        let isMarkedSecret: Bool
        init(formats: [String: [UInt8]], markedSecret: Bool) {
            self.formats = formats
            isMarkedSecret = markedSecret
        }
        var byteCount: Int { formats.values.reduce(0) { $0 + $1.count } }
        var formatCount: Int { formats.count }
    }

    /// Who owns a selection now.
    enum Owner: Equatable {
        /// This daemon, with the ownership's stamp.
        case daemon(OwnershipStamp)
        /// Another program (or nobody, with empty formats).
        case other
    }

    /// Names itself as the tests' backend.
    var summary: String { "recording (in memory)" }
    /// Declares PRIMARY and named readers, as X11 does.
    var capabilities = SelectionCapabilities(primary: true, namesReaders: true)
    /// The settings in force (a reload puts new ones here).
    var settings = ClipboardSettings()
    /// Every copy of a text, oldest first (CLIPBOARD only).
    private(set) var copies: [Copy] = []
    /// Every content put on a selection, oldest first: (selection, what, secret).
    private(set) var ownerships: [(ClipboardSelection, String, Bool)] = []
    /// How many ownerships were given up.
    private(set) var clears = 0
    /// How many times a selection's text was read.
    private(set) var reads = 0
    /// How many times every format was read.
    private(set) var savedReads = 0
    /// When set, `own` throws `ClipboardUnavailable` with this reason and records nothing.
    var refusal: String?
    /// What a read gets while this daemon does not own the clipboard: another program's
    /// text (with its password mark), or an error (by default, an empty clipboard).
    var offered: Result<ClipboardText, CliptabError> = .failure(
        CliptabError(.clipboardEmpty, "nothing is on the clipboard"))
    /// What `readSaved` gets while another program owns the clipboard.
    var offeredSaved: Result<Saved, CliptabError> = .failure(
        CliptabError(.clipboardEmpty, "nothing is on the clipboard"))
    /// When true, reads complete only when `completeReads()` is called.
    var holdReads = false
    private var heldReads: [() -> Void] = []
    /// The owner of each selection and what it serves.
    private(set) var owner: [ClipboardSelection: Owner] = [:]
    private(set) var served: [ClipboardSelection: (content: SelectionContent, secret: Bool)] = [:]
    private var lastStamp: UInt64 = 0
    /// Selections another program took whose loss this daemon has not seen yet: the stamp
    /// it still believes current (as an X11 SelectionClear not yet read).
    private var unseenTaker: [ClipboardSelection: OwnershipStamp] = [:]
    private var pending: [SelectionEvent] = []

    /// Makes an empty clipboard with `settings`.
    init(settings: ClipboardSettings = ClipboardSettings()) { self.settings = settings }

    /// True while the daemon's last ownership of CLIPBOARD is current.
    var isOwned: Bool {
        if case .daemon = owner[.clipboard] { return true }
        return false
    }

    /// The text this daemon serves on `selection` now, or nil.
    func servedText(_ selection: ClipboardSelection = .clipboard) -> String? {
        guard case .daemon = owner[selection], let content = served[selection]?.content else { return nil }
        switch content {
        case .text(let text): return text
        case .saved(let saved):
            return (saved as? Saved).map { "saved:" + $0.formats.keys.sorted().joined(separator: ",") }
        }
    }

    func own(
        _ selection: ClipboardSelection, _ content: SelectionContent, secret: Bool, replacing: OwnershipStamp?
    )
        throws -> OwnershipStamp
    {
        if let refusal { throw CliptabError(.clipboardUnavailable, refusal) }
        if let replacing, owner[selection] != .daemon(replacing) || unseenTaker[selection] != nil {
            throw CliptabError(.clipboardUnavailable, "another program took \(selection) since")
        }
        lastStamp += 1
        let stamp = OwnershipStamp(rawValue: lastStamp)
        unseenTaker[selection] = nil
        owner[selection] = .daemon(stamp)
        served[selection] = (content, secret)
        switch content {
        case .text(let text):
            if selection == .clipboard { copies.append(Copy(text: text, isSecret: secret)) }
            ownerships.append((selection, text, secret))
        case .saved(let saved):
            ownerships.append((selection, "saved(\(saved.formatCount))", secret))
        }
        return stamp
    }

    func release(_ selection: ClipboardSelection, _ stamp: OwnershipStamp) {
        // A release of an ownership already taken unseen: the daemon forgets it, the
        // "server" ignores it (as X11 does for a release older than the new owner's).
        if unseenTaker[selection] == stamp { unseenTaker[selection] = nil }
        guard owner[selection] == .daemon(stamp) else { return }
        clears += 1
        owner[selection] = nil
        served[selection] = nil
    }

    func currentStamp(_ selection: ClipboardSelection) -> OwnershipStamp? {
        if case .daemon(let stamp) = owner[selection] { return stamp }
        if let stale = unseenTaker[selection] { return stale }
        return nil
    }

    func readText(
        _ selection: ClipboardSelection, completion: @escaping (Result<ClipboardText, CliptabError>) -> Void
    ) {
        reads += 1
        let result: Result<ClipboardText, CliptabError>
        if case .daemon = owner[selection], let (content, secret) = served[selection],
            case .text(let text) = content
        {
            result = .success(ClipboardText(text: text, isMarkedSecret: secret))
        } else {
            result = offered
        }
        deliver { completion(result) }
    }

    func readSaved(
        _ selection: ClipboardSelection, maxBytes: Int,
        completion: @escaping (Result<SavedClipboard, CliptabError>) -> Void
    ) {
        savedReads += 1
        let result = offeredSaved.map { $0 as SavedClipboard }
        deliver { completion(result) }
    }

    private func deliver(_ completion: @escaping () -> Void) {
        if holdReads { heldReads.append(completion) } else { completion() }
    }

    /// Completes the reads held back by `holdReads`.
    func completeReads() {
        let reads = heldReads
        heldReads = []
        for read in reads { read() }
    }

    /// How many hand-overs to a clipboard manager were asked for.
    private(set) var handOvers = 0
    func handOver() { handOvers += 1 }

    var pollDescriptor: Int32? { nil }
    func process(now: UInt64) -> [SelectionEvent] {
        defer { pending = [] }
        return pending
    }
    func nextDeadline() -> UInt64? { pending.isEmpty ? retryAt : 0 }
    /// When the lost "display" is tried again, after `connectionLost`.
    private var retryAt: UInt64?

    // MARK: - Playing the other programs

    /// Makes another program the owner of `selection`, offering `text` (marked with the
    /// password-manager hint when `markedSecret`): this daemon's copy is gone.
    func takenByAnotherProgram(
        offering text: String, markedSecret: Bool = false, selection: ClipboardSelection = .clipboard
    ) {
        if case .daemon(let stamp) = owner[selection] { pending.append(.lost(selection, stamp)) }
        owner[selection] = .other
        served[selection] = nil
        offered = .success(ClipboardText(text: text, isMarkedSecret: markedSecret))
        offeredSaved = .success(Saved(formats: ["UTF8_STRING": Array(text.utf8)], markedSecret: markedSecret))
    }

    /// Another program takes CLIPBOARD, but the news has not reached this daemon: it still
    /// believes its ownership current; only a replacing `own` learns otherwise (the X
    /// server's time rule), an ordinary `own` takes it back.
    func takenUnseen(offering text: String) {
        guard case .daemon(let stamp) = owner[.clipboard] else { return }
        unseenTaker[.clipboard] = stamp
        owner[.clipboard] = .other
        served[.clipboard] = nil
        offered = .success(ClipboardText(text: text, isMarkedSecret: false))
    }

    /// A program `reader` reads the current ownership of `selection` (the whole text when
    /// `delivered`), begun when the policy handles it unless `origin` says otherwise.
    func read(
        by reader: UInt64?, selection: ClipboardSelection = .clipboard, delivered: Bool = true,
        origin: ReadOrigin? = nil
    ) {
        guard let stamp = currentStamp(selection) else { return }
        pending.append(.served(selection, stamp, reader: reader, textDelivered: delivered, origin: origin))
    }

    /// The "display" goes away: every ownership ends, reported; taking a selection is refused
    /// until the retry at `retryAt`.
    func connectionLost(retryAt: UInt64) {
        for (selection, owner) in owner.sorted(by: { $0.key == .clipboard && $1.key != .clipboard }) {
            if case .daemon(let stamp) = owner { pending.append(.lost(selection, stamp)) }
        }
        owner = [:]
        served = [:]
        refusal = "the display went away"
        self.retryAt = retryAt
    }
}

/// A key injector in memory: records the chords it sends, or refuses as told.
final class RecordingInjector: KeyInjector {
    /// The window the chords go to.
    var target = PasteTarget(names: ["entry", "Entry"], reader: 7)
    /// When set, `focusedTarget` throws it.
    var refusal: (any Error)?
    /// Called for each chord sent, after it is recorded.
    var onSend: () -> Void = {}
    /// The chords sent, oldest first.
    private(set) var chords: [String] = []
    /// When true, `prepare` keeps its callback in `pendingPrepare` (a consent dialog up)
    /// instead of answering at once.
    var defersPrepare = false
    /// The callback of the deferred `prepare`, for the test to answer.
    var pendingPrepare: ((NoPasteTarget?) -> Void)?

    func prepare(_ ready: @escaping (NoPasteTarget?) -> Void) {
        guard defersPrepare else { return ready(nil) }
        pendingPrepare = ready
    }

    func focusedTarget() throws -> PasteTarget {
        if let refusal { throw refusal }
        return target
    }

    /// The windows focused again, oldest first; `gone` are refused.
    private(set) var refocused: [UInt64] = []
    /// Windows that no longer exist.
    var gone: Set<UInt64> = []

    func currentFocus() -> UInt64? { 42 }

    func refocus(_ window: UInt64) throws {
        guard !gone.contains(window) else { throw NoPasteTarget("the window focused before is gone") }
        refocused.append(window)
    }

    func send(_ chord: KeyChord, repressModifiers: Bool) throws {
        chords.append("\(chord)")
        onSend()
    }
}

/// A clock a test moves by hand.
final class VirtualClock {
    /// The time, in milliseconds.
    var now: UInt64 = 1_000

    /// Moves the time on by `milliseconds`.
    func advance(_ milliseconds: UInt64) { now += milliseconds }
}
