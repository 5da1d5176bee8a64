// SPDX-License-Identifier: MIT
import CliptabCore

/// The daemon's clipboard rules, the same for every backend: what it serves and for which
/// row, when a secret leaves the clipboard, and the paste into the focused window with its
/// restore (`ClipboardPolicy+Paste.swift`).
///
/// It talks to a `SelectionBackend` and a `KeyInjector` and learns what they can do from
/// their declarations. Time comes from the `now` the loop gives `process(now:)` and from the
/// clock passed at `init`, so a test drives every timer with a virtual clock.
public final class ClipboardPolicy: PollSource {
    /// The most pastes that wait behind the one under way; past it a paste is refused at
    /// once with `LimitExceeded`.
    public static let maxWaitingPastes = 4
    /// How long a paste may wait for its turn, in milliseconds: past it, it is dropped
    /// without typing (a caller that waited this long has likely given up; the CLI waits
    /// 5 s).
    public static let maxPasteWaitMilliseconds: UInt64 = 5_000
    /// The most bytes of another program's content kept to put back after a paste, all
    /// formats together: an image or a file list fits, a larger content is not put back.
    public static let maxSavedBytes = 64 << 20
    /// The most secret clears remembered at once; older ones are then done early.
    static let maxSecretClears = 16

    let backend: SelectionBackend
    let injector: KeyInjector?
    let clock: () -> UInt64
    /// Told each change of this daemon's hold on the clipboard: (owned, row id or 0).
    ///
    /// Told each change of this daemon's hold on the clipboard.
    let announcer: ChangeAnnouncer
    /// What this daemon serves, per selection.
    var held: [ClipboardSelection: HeldSelection] = [:]
    /// The secret copies to clear, oldest first.
    var secretClears: [SecretClear] = []
    /// The paste under way and those waiting.
    var current: PasteRun?
    var waiting: [PasteRun] = []
    /// The sequence running, if any (`ClipboardPolicy+Sequence.swift`).
    var sequence: SequenceRun?

    /// The settings in force; a reload puts new ones here (and into the backend and the
    /// injector).
    public var settings: ClipboardSettings {
        didSet {
            backend.settings = settings
            injector?.apply(settings.focusPaste)
        }
    }

    /// Makes the policy over `backend` (and `injector`, where keys can be sent), with
    /// `settings`, telling `announcer` each change of the hold on the clipboard, reading the
    /// time from `clock` (monotonic milliseconds).
    public init(
        backend: SelectionBackend, injector: KeyInjector?, settings: ClipboardSettings,
        announcer: ChangeAnnouncer, clock: @escaping () -> UInt64
    ) {
        self.backend = backend
        self.announcer = announcer
        self.injector = injector
        self.settings = settings
        self.clock = clock
        backend.settings = settings
        injector?.apply(settings.focusPaste)
    }

    /// True while this daemon serves the clipboard.
    public var isOwned: Bool { heldNow(.clipboard) != nil }

    /// The row whose text this daemon serves on the clipboard (0: none, a section, or
    /// another program's content put back).
    public var copiedRowID: UInt64 { heldNow(.clipboard)?.rowID ?? 0 }

    /// What this daemon serves on `selection`, if the backend still says it is ours.
    func heldNow(_ selection: ClipboardSelection) -> HeldSelection? {
        guard let held = held[selection], backend.currentStamp(selection) == held.stamp else { return nil }
        return held
    }

    // MARK: - Copy, read, clear

    /// Puts `text` on the clipboard (and PRIMARY when configured and the backend has it)
    /// for row `rowID`; a secret is cleared `secretClearMilliseconds` after this copy.
    public func copy(_ text: String, isSecret: Bool, rowID: UInt64) throws {
        let stamp = try backend.own(.clipboard, .text(text), secret: isSecret, replacing: nil)
        held[.clipboard] = HeldSelection(stamp: stamp, rowID: rowID, secret: isSecret, content: .text(text))
        var stamps = [ClipboardSelection.clipboard: stamp]
        if settings.ownPrimary && backend.capabilities.primary,
            let primary = try? backend.own(.primary, .text(text), secret: isSecret, replacing: nil)
        {
            held[.primary] = HeldSelection(
                stamp: primary, rowID: rowID, secret: isSecret, content: .text(text))
            stamps[.primary] = primary
        }
        if isSecret { armSecretClear(stamps, text: text) }
        announcer.announceClipboard(owned: true, rowID: rowID)
    }

    /// Reads the clipboard's text and its owner's password mark, whoever owns it; refused
    /// where the backend may not see the current owner (it would store a stale text).
    public func readText(completion: @escaping (Result<ClipboardText, CliptabError>) -> Void) {
        if let blindSpot = backend.capabilities.blindSpot {
            return completion(.failure(CliptabError(.clipboardUnavailable, blindSpot)))
        }
        backend.readText(.clipboard, completion: completion)
    }

    /// Gives up every selection this daemon serves; a newer owner's content stays.
    public func clear() {
        let owned = isOwned
        for (selection, held) in held { backend.release(selection, held.stamp) }
        held = [:]
        if owned { announcer.announceClipboard(owned: false, rowID: 0) }
    }

    /// At exit: a sequence ends (the clipboard from before it back), every secret selection
    /// is given up, then a non-secret clipboard is handed to a clipboard manager where one
    /// runs.
    public func shutdown() {
        // The clipboard from before a sequence is what the person had: it is what goes on.
        stopSequence()
        for (selection, held) in held where held.secret {
            backend.release(selection, held.stamp)
            self.held[selection] = nil
        }
        backend.handOver()
    }

    // MARK: - Secrets

    /// Remembers that the ownerships `stamps` hold a secret to clear at its deadline.
    func armSecretClear(_ stamps: [ClipboardSelection: OwnershipStamp], text: String?) {
        let deadline = clock() + UInt64(max(settings.secretClearMilliseconds, 0))
        secretClears.append(SecretClear(deadline: deadline, stamps: stamps, text: text))
        if secretClears.count > Self.maxSecretClears { clearSecret(secretClears.removeFirst()) }
    }

    /// The secret whose ownership `old` a paste put back as `new` keeps its deadline.
    func moveSecretClear(of selection: ClipboardSelection, from old: OwnershipStamp, to new: OwnershipStamp) {
        for index in secretClears.indices where secretClears[index].stamps[selection] == old {
            secretClears[index].stamps[selection] = new
        }
    }

    /// Clears the secrets whose deadline has come.
    private func clearExpiredSecrets(now: UInt64) {
        let due = secretClears.filter { $0.deadline <= now }
        guard !due.isEmpty else { return }
        secretClears.removeAll { $0.deadline <= now }
        for clear in due { clearSecret(clear) }
    }

    /// Takes one secret off every selection it was put on, while it is still served there.
    ///
    /// Where a clipboard manager took it over, the selection still serving that very text
    /// is cleared too. Anything else is left alone.
    private func clearSecret(_ clear: SecretClear) {
        for (selection, stamp) in clear.stamps {
            let current = backend.currentStamp(selection)
            if current == stamp {
                backend.release(selection, stamp)
                if held[selection]?.stamp == stamp {
                    held[selection] = nil
                    if selection == .clipboard { announcer.announceClipboard(owned: false, rowID: 0) }
                }
            }
            // Read back even after our own release: a manager's take-over whose news has
            // not reached the backend yet (an X11 SelectionClear still unread) makes that
            // release a no-op, and the manager would serve the secret on.
            if current == stamp || current == nil, let text = clear.text {
                clearTakenOver(selection, texts: [text])
            }
        }
    }

    /// Reads `selection` back; if another program serves exactly one of `texts`, takes the
    /// selection and gives it up, leaving it empty.
    func clearTakenOver(_ selection: ClipboardSelection, texts: Set<String>) {
        backend.readText(selection) { [weak self] result in
            guard let self, case .success(let read) = result, texts.contains(read.text),
                self.backend.currentStamp(selection) == nil,
                let stamp = try? self.backend.own(selection, .text(""), secret: true, replacing: nil)
            else { return }
            self.backend.release(selection, stamp)
        }
    }

    // MARK: - PollSource

    /// The backend's descriptor.
    public var pollDescriptor: Int32? { backend.pollDescriptor }

    /// Handles the backend's events, the paste under way and the secrets due.
    public func process(now: UInt64) {
        for event in backend.process(now: now) {
            switch event {
            case .lost(let selection, let stamp):
                guard held[selection]?.stamp == stamp else { continue }
                held[selection] = nil
                // A paste under way announces once, at its end.
                if selection == .clipboard && current?.stamp != stamp {
                    announcer.announceClipboard(owned: false, rowID: 0)
                }
            case .served(let selection, let stamp, let reader, let textDelivered, let origin):
                pasteServed(selection, stamp, reader: reader, textDelivered: textDelivered, now: now)
                if textDelivered {
                    sequenceServed(selection, stamp, reader: reader, origin: origin, now: now)
                }
            }
        }
        processPastes(now: now)
        processSequence(now: now)
        clearExpiredSecrets(now: now)
    }

    /// The earliest of the backend's deadline, a paste's, the sequence's and a secret's.
    public func nextDeadline() -> UInt64? {
        var deadlines = secretClears.map(\.deadline)
        if let deadline = backend.nextDeadline() { deadlines.append(deadline) }
        if let deadline = pasteDeadline { deadlines.append(deadline) }
        if let deadline = sequenceDeadline { deadlines.append(deadline) }
        return deadlines.min()
    }
}
