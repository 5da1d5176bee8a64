// SPDX-License-Identifier: MIT
import CliptabCore

/// The sequence: rows offered one paste at a time. The clipboard before it is saved (every
/// format, as for a paste into the focused window), the first row is offered, and each paste
/// by a window (`SequencePasteRule`) offers the next once the window went quiet (`settle_ms`);
/// after the last, the clipboard from before comes back. `StopSequence` and `idle_ms` end it
/// the same way; a copy by any other program ends it and nothing is put back over it.
///
/// One at a time: a new sequence replaces the running one and keeps the clipboard it saved.
/// A secret row is offered with the password-manager hint and is never left behind: a
/// secret sequence's idle time is at most `secret_clear_ms`, and its end reads the
/// clipboard back and empties it where a clipboard manager took a row over.
extension ClipboardPolicy {
    /// The most rows one sequence has.
    public static let maxSequenceRows = 1_000

    /// Where the running sequence is; nil when none runs (or it is still reading the
    /// clipboard to put back).
    public var sequenceStatus: SequenceStatus? {
        guard let sequence, sequence.stamp != nil else { return nil }
        return sequence.status
    }

    /// Starts a sequence of `items` from `table`, section `section` (headed `header`),
    /// replacing the one running; `completion` runs once the first row is on the clipboard,
    /// or with why it could not be put there.
    func startSequence(
        _ items: [SequenceRun.Item], table: String, section: Int32, header: String,
        completion: @escaping (Result<SequenceStatus, CliptabError>) -> Void
    ) {
        let now = clock()
        let run = SequenceRun(
            items: items, table: table, section: section, header: header, now: now,
            idleDeadline: now + idleMilliseconds(items))
        let replaced = sequence
        sequence = run
        let start = { [weak self] in
            guard let self, self.sequence === run else {
                return completion(
                    .failure(
                        CliptabError(
                            .clipboardUnavailable,
                            "the sequence was stopped or replaced while the clipboard before it was read")))
            }
            do {
                try self.offer(run)
                completion(.success(run.status))
            } catch {
                self.sequence = nil
                completion(.failure(Self.clipboardError(error)))
            }
        }
        // The replaced sequence's row is no clipboard of the person's: keep what it saved
        // (one still reading it has saved nothing yet: read again).
        if let replaced, replaced.stamp != nil {
            run.previous = replaced.previous
            return start()
        }
        if let own = heldNow(.clipboard) {
            run.previous = .own(own)
            return start()
        }
        backend.readSaved(.clipboard, maxBytes: Self.maxSavedBytes) { [weak self] result in
            if case .success(let saved) = result { run.previous = .other(saved) }
            if case .failure(let error) = result, error.code != .clipboardEmpty {
                Log.line("sequence: nothing to put back at its end: \(error.message)")
            }
            guard self != nil else { return }
            start()
        }
    }

    /// Ends the running sequence and puts the clipboard from before back; false when none ran.
    @discardableResult
    public func stopSequence() -> Bool {
        guard sequence != nil else { return false }
        endSequence(.stopped)
        return true
    }

    /// The idle time of a sequence of `items`: `idle_ms`, at most `secret_clear_ms` when one
    /// is secret.
    private func idleMilliseconds(_ items: [SequenceRun.Item]) -> UInt64 {
        var idle = max(settings.sequenceIdleMilliseconds, 0)
        if items.contains(where: \.isSecret) { idle = min(idle, max(settings.secretClearMilliseconds, 0)) }
        return UInt64(idle)
    }

    /// Puts the row at the sequence's index on the clipboard.
    private func offer(_ run: SequenceRun) throws {
        let item = run.items[run.index]
        // CLIPBOARD only, as a paste: PRIMARY keeps what the person selected.
        let stamp = try backend.own(.clipboard, .text(item.text), secret: item.isSecret, replacing: nil)
        run.stamp = stamp
        held[.clipboard] = HeldSelection(
            stamp: stamp, rowID: item.rowID, secret: item.isSecret, content: .text(item.text))
        let now = clock()
        run.rule.offered(at: now)
        run.settleDeadline = nil
        run.pastedBy = nil
        run.idleDeadline = now + idleMilliseconds(run.items)
        announcer.announceClipboard(owned: true, rowID: item.rowID)
        announcer.announceSequence(run.status)
    }

    /// Follows the reads of the row offered: a paste by a window starts the settle, after
    /// which the next row is offered; the same window reading again pushes it back.
    func sequenceServed(
        _ selection: ClipboardSelection, _ stamp: OwnershipStamp, reader: UInt64?, origin: ReadOrigin?,
        now: UInt64
    ) {
        guard let run = sequence, selection == .clipboard, stamp == run.stamp else { return }
        let reader = origin.map(\.client) ?? reader
        // Asked here, while a sequence runs, so that a plain paste's read costs no round trip.
        let read = SequencePasteRule.Read(
            reader: reader, isClipboardManager: reader.map(backend.isClipboardManager) ?? false,
            startedAt: origin?.startedAt ?? now)
        let settle = UInt64(settings.focusPaste.settleMilliseconds)
        if run.settleDeadline != nil {
            if !read.isClipboardManager && read.reader == run.pastedBy { run.settleDeadline = now + settle }
            return
        }
        guard run.rule.isPaste(read) else { return }
        run.pastedBy = read.reader
        run.settleDeadline = now + settle
    }

    /// The next time the sequence needs attention without input.
    var sequenceDeadline: UInt64? {
        // A paste under way holds the sequence (`processSequence`): its own deadlines wake
        // the loop, never the sequence's past ones.
        guard current == nil, let run = sequence, run.stamp != nil else { return nil }
        return run.settleDeadline ?? run.idleDeadline
    }

    /// Offers the next row after a paste, ends the sequence after the last, when left alone,
    /// or when another program took the clipboard.
    func processSequence(now: UInt64) {
        // A paste into the focused window owns the clipboard until its restore, which hands
        // the sequence's row back (`putBack`).
        guard current == nil, let run = sequence, let stamp = run.stamp else { return }
        if backend.currentStamp(.clipboard) != stamp { return endSequence(.replaced) }
        if let settle = run.settleDeadline, now >= settle {
            guard run.index + 1 < run.items.count else { return endSequence(.finished) }
            run.index += 1
            do { try offer(run) } catch {
                Log.line(
                    "sequence of table \(run.table): row \(run.index + 1) not offered: \(error)",
                    level: .warning)
                endSequence(.replaced)
            }
        } else if run.settleDeadline == nil, now >= run.idleDeadline {
            endSequence(.idle)
        }
    }

    /// Ends the sequence: but when another program took the clipboard, the clipboard from
    /// before goes back (nothing: it is emptied); a secret row a manager took over is cleared.
    func endSequence(_ end: SequenceEnd) {
        guard let run = sequence else { return }
        sequence = nil
        if end != .replaced, let stamp = run.stamp, backend.currentStamp(.clipboard) == stamp {
            do {
                if let previous = run.previous { try putBack(previous, replacing: stamp) }
            } catch {
                Log.line(
                    "sequence of table \(run.table): the clipboard was not put back: \(error)",
                    level: .warning)
            }
            if backend.currentStamp(.clipboard) == stamp {
                backend.release(.clipboard, stamp)
                held[.clipboard] = nil
            }
        }
        if run.isSecret {
            // As a secret's clear: a manager serving a row now is emptied, anything else stays.
            clearTakenOver(.clipboard, texts: Set(run.items.filter(\.isSecret).map(\.text)))
        }
        if run.stamp != nil {
            announcer.announceClipboard(owned: isOwned, rowID: copiedRowID)
            announcer.announceSequence(nil)
        }
        Log.line(
            "sequence of table \(run.table) ended (\(end.rawValue)) at row \(run.index + 1) of \(run.items.count)"
        )
    }
}
