// SPDX-License-Identifier: MIT
import CliptabCore
import KeyChords

/// The paste into the focused window: save what the clipboard holds (every format), copy,
/// send the chord, watch the target fetch the text, put the saved content back.
///
/// One paste at a time, since each owns the clipboard from its copy to its restore; a few
/// wait behind it, each dropped without typing once its caller is gone or it waited too
/// long. The restore follows the first complete text transfer to the target after the
/// chord, once the target has been quiet for `settle_ms`; reads by others (a clipboard
/// manager fetching every new owner's text) prove nothing where the backend names readers.
/// Whatever happens once the chord is due — delivered, not fetched in time, chord refused —
/// the saved content is put back, unless another program took the clipboard meanwhile: a
/// restore replaces only the pasted copy, never a newer one. With no window to type into,
/// the text is copied instead, for a paste by hand.
extension ClipboardPolicy {
    /// Starts a paste of `text` (row `rowID`) from `caller`, into `window` (given the focus
    /// first) or the focused window; it waits behind one under way.
    ///
    /// Throws `ClipboardUnavailable` when nothing can send keys, and `LimitExceeded` when
    /// `maxWaitingPastes` already wait. `completion` runs from the loop: a result (delivered
    /// or why not), or an error when the paste could not begin.
    ///
    /// `caretLeft` (a template's `{cursor}`): once the target fetched the text and went quiet,
    /// that many Left chords move its caret back.
    public func pasteToFocus(
        _ text: String, isSecret: Bool, rowID: UInt64, timeoutMilliseconds: Int, caller: String?,
        window: UInt64? = nil, caretLeft: Int = 0,
        completion: @escaping (Result<FocusPasteResult, CliptabError>) -> Void
    ) throws {
        try checkCanPaste()
        let timeout = timeoutMilliseconds > 0 ? timeoutMilliseconds : settings.focusPaste.timeoutMilliseconds
        let run = PasteRun(
            text: text, isSecret: isSecret, rowID: rowID, timeoutMilliseconds: timeout, caller: caller,
            startBy: clock() + Self.maxPasteWaitMilliseconds, completion: completion)
        run.window = window
        run.caretLeft = caretLeft
        try enqueue(run)
    }

    /// Begins `run` now, or queues it behind the one under way; `LimitExceeded` when
    /// `maxWaitingPastes` already wait.
    func enqueue(_ run: PasteRun) throws {
        guard current != nil else { return begin(run) }
        guard waiting.count < Self.maxWaitingPastes else {
            throw CliptabError(
                .limitExceeded,
                "\(waiting.count) pastes already wait behind the one under way; try again when they end")
        }
        waiting.append(run)
    }

    /// How long a paste waits for the injector to be able to type, in milliseconds.
    ///
    /// The wait is the desktop's consent dialog at the first paste through the RemoteDesktop
    /// portal. Past it the text is left on the clipboard; the consent, once given, serves the
    /// next paste.
    public static let maxPrepareMilliseconds: UInt64 = 20_000

    /// How long a paste waits after the injector became able to type later than at once (a
    /// consent dialog was answered), in milliseconds: the dialog's window gives the focus
    /// back to the target meanwhile.
    public static let afterConsentMilliseconds: UInt64 = 300

    /// The most Left chords a paste sends to put the caret at a template's `{cursor}`.
    public static let maxCaretChords = 1000

    /// Throws `ClipboardUnavailable` when nothing can send keystrokes.
    public func checkCanPaste() throws {
        guard injector != nil else {
            throw CliptabError(
                .clipboardUnavailable, "this daemon's clipboard backend cannot send keystrokes")
        }
    }

    /// Cancels the pastes of `caller` (a unique bus name that left the bus) that have not
    /// typed yet: none of them will.
    public func callerGone(_ caller: String) {
        let gone = waiting.filter { $0.caller == caller }
        waiting.removeAll { $0.caller == caller }
        for run in gone {
            run.phase = .done
            run.completion(
                .failure(CliptabError(.clipboardUnavailable, "the caller left before its paste began")))
        }
        // A fill under way types no further row once its caller is gone.
        if let run = current, run.caller == caller,
            run.phase == .preparing || run.phase == .readingPrevious || run.fill != nil
        {
            run.cancelled = true
        }
    }

    /// The window that has the input focus now, for a paste into it later; nil when none
    /// has it or the injector cannot name it.
    public func currentFocus() -> UInt64? { injector?.currentFocus() }

    /// The next time the pastes need attention without input.
    var pasteDeadline: UInt64? {
        var deadlines = waiting.map(\.startBy)
        if let run = current, run.phase == .waiting { deadlines.append(run.settleDeadline ?? run.deadline) }
        if let run = current, run.phase == .preparing { deadlines.append(run.readyAt ?? run.deadline) }
        if let run = current, run.phase == .offering { deadlines.append(run.deadline) }
        return deadlines.min()
    }

    private func begin(_ run: PasteRun) {
        current = run
        do {
            if let window = run.window { try injector?.refocus(window) }
            run.target = try injector?.focusedTarget()
        } catch let refusal as NoPasteTarget {
            return copyInstead(run, refusal)
        } catch {
            return fail(run, Self.clipboardError(error))
        }
        run.phase = .preparing
        run.deadline = clock() + Self.maxPrepareMilliseconds
        var waited = false
        injector?.prepare { [weak self] refusal in
            guard let self, self.current === run, run.phase == .preparing else { return }
            if let refusal { return self.copyInstead(run, refusal) }
            // A consent dialog that just closed gives the focus back to the target after
            // the portal answered: keys sent at once reached the dialog in part (measured
            // on GNOME: the Ctrl of Ctrl+V was lost and a bare "v" was typed).
            guard waited else { return self.readPrevious(run) }
            run.readyAt = self.clock() + Self.afterConsentMilliseconds
        }
        waited = true
    }

    /// Nothing to type into: the text becomes a plain copy, for a paste by hand, and the
    /// reply says why at once.
    private func copyInstead(_ run: PasteRun, _ refusal: NoPasteTarget) {
        // A fill's rows are no text to paste by hand: it only says why nothing was typed.
        guard run.fill == nil else {
            run.reason = refusal.reason
            return finish(run)
        }
        do {
            try copy(run.text, isSecret: run.isSecret, rowID: run.rowID)
            run.reason = refusal.reason + "; the text is on the clipboard instead, to paste by hand"
        } catch {
            run.reason = refusal.reason
            run.notes.append("the text could not be copied either: \(error)")
        }
        finish(run)
    }

    /// Saves what the clipboard holds, then sends the chord.
    private func readPrevious(_ run: PasteRun) {
        run.phase = .readingPrevious
        if let own = heldNow(.clipboard) {
            run.previous = .own(own)
            return sendChord(run)
        }
        backend.readSaved(.clipboard, maxBytes: Self.maxSavedBytes) { [weak self] result in
            guard let self, self.current === run, run.phase == .readingPrevious else { return }
            switch result {
            case .success(let saved):
                run.previous = .other(saved)
            case .failure(let error):
                if error.code != .clipboardEmpty {
                    run.notes.append("nothing to restore after the paste: \(error.message)")
                }
            }
            self.sendChord(run)
        }
    }

    private func sendChord(_ run: PasteRun) {
        guard !run.cancelled else {
            run.reason = "the caller left before the paste was typed"
            return finish(run)
        }
        guard offer(run) else { return }
        guard !offerToBridge(run) else { return }
        sendKeys(run, separator: nil)
    }

    /// Holds the keys of a row just offered on an X clipboard for a window the X server
    /// does not name (a Wayland window, reached by the portal or the virtual keyboard) until
    /// someone asked the new owner for anything (the compositor's bridge of the two
    /// clipboards first) and `bridgeSettleMilliseconds` more passed, or until
    /// `bridgeOfferMilliseconds` passed; true when it does.
    ///
    /// Under load a compositor may not yet have seen the new X owner when the chord reaches
    /// its Wayland window, which then pastes what the compositor offered before.
    func offerToBridge(_ run: PasteRun) -> Bool {
        guard backend.capabilities.namesReaders, !backend.capabilities.readersByKeystrokes,
            run.target != nil, run.target?.reader == nil
        else { return false }
        run.awaitsBridge = true
        run.phase = .offering
        run.deadline = clock() + Self.bridgeOfferMilliseconds
        return true
    }

    /// Copies the run's text (its current row, for a fill); false when that failed and the
    /// run was answered.
    func offer(_ run: PasteRun) -> Bool {
        let stamp: OwnershipStamp
        do {
            // CLIPBOARD only: PRIMARY keeps what the person selected.
            stamp = try backend.own(.clipboard, .text(run.text), secret: run.isSecret, replacing: nil)
        } catch {
            // A fill past its first row has the person's clipboard to put back.
            guard let fill = run.fill, fill.index > 0 else {
                fail(run, Self.clipboardError(error))
                return false
            }
            run.reason = "the row was not copied: \(Self.clipboardError(error).message)"
            restore(run)
            finish(run)
            return false
        }
        run.stamp = stamp
        held[.clipboard] = HeldSelection(
            stamp: stamp, rowID: run.rowID, secret: run.isSecret, content: .text(run.text))
        if run.isSecret { armSecretClear([.clipboard: stamp], text: run.text) }
        return true
    }

    /// Sends `separator` (a fill's key between two rows) if any, then the chord to the
    /// focused window; waits for the fetch.
    func sendKeys(_ run: PasteRun, separator: KeyChord?) {
        let paste = settings.focusPaste
        do {
            if let separator { try injector?.send(separator, repressModifiers: false) }
            // A fill's later row asks again, after the separator: the focus may have moved,
            // and on Wayland the target's reads are those after the next keystroke mark.
            if let fill = run.fill, fill.index > 0, let target = try injector?.focusedTarget() {
                run.target = target
            }
            try injector?.send(
                paste.chord(names: run.target?.names ?? []), repressModifiers: paste.repressModifiers)
        } catch {
            // Nothing was typed: the clipboard goes back as it was.
            run.reason = (error as? NoPasteTarget)?.reason ?? Self.clipboardError(error).message
            restore(run)
            return finish(run)
        }
        run.phase = .waiting
        run.delivered = false
        run.settleDeadline = nil
        run.deadline = clock() + UInt64(run.timeoutMilliseconds)
    }

    /// Follows the target's reads: a complete text transfer to it is the paste.
    func pasteServed(
        _ selection: ClipboardSelection, _ stamp: OwnershipStamp, reader: UInt64?, textDelivered: Bool,
        now: UInt64
    ) {
        if let run = current, run.phase == .offering, run.awaitsBridge, selection == .clipboard,
            stamp == run.stamp
        {
            // The bridge asked; it still has to read the answer and tell its Wayland
            // clients before the keys, which reach it by another socket, may go.
            run.awaitsBridge = false
            run.deadline = min(run.deadline, now + Self.bridgeSettleMilliseconds)
            return
        }
        guard let run = current, run.phase == .waiting, selection == .clipboard, stamp == run.stamp else {
            return
        }
        if backend.capabilities.namesReaders, let target = run.target?.reader, reader != target { return }
        if textDelivered { run.delivered = true }
        // Any further read of the target's pushes the restore (or a fill's next row) back.
        if run.delivered { run.settleDeadline = now + quietMilliseconds(run) }
    }

    /// How long the target must be quiet after its fetch before `run` goes on: `settle_ms`
    /// before the restore, `fillRowQuietMilliseconds` (at most `settle_ms`) before a fill's
    /// next row where the read came from the target window by name.
    private func quietMilliseconds(_ run: PasteRun) -> UInt64 {
        let settle = UInt64(settings.focusPaste.settleMilliseconds)
        // Where reads are told apart by keystrokes (Wayland) or the target is unnamed (the
        // portal, Xwayland), the read taken for the form's may be a clipboard manager's or a
        // bridge's and the form's own read come later: with 10 ms the next row reached the
        // field before (WaylandFillTests, PortalFillTests), so settle_ms stays there.
        let named =
            backend.capabilities.namesReaders && !backend.capabilities.readersByKeystrokes
            && run.target?.reader != nil
        return run.fill?.hasNext == true && named ? min(settle, Self.fillRowQuietMilliseconds) : settle
    }

    /// Drops pastes that waited too long, restores after the quiet period, gives up at the
    /// timeout, and steps aside when another program took the clipboard.
    func processPastes(now: UInt64) {
        let late = waiting.filter { $0.startBy <= now }
        waiting.removeAll { $0.startBy <= now }
        for run in late { dropLate(run) }
        if let run = current, run.phase == .preparing, let ready = run.readyAt, now >= ready {
            return readPrevious(run)
        }
        if let run = current, run.phase == .preparing, run.readyAt == nil, now >= run.deadline {
            return copyInstead(
                run,
                NoPasteTarget(
                    "the desktop did not let cliptabd type within \(Self.maxPrepareMilliseconds / 1000) s (is its "
                        + "remote-desktop consent dialog still waiting for an answer?)"))
        }
        if let run = current, run.phase == .offering { return fillOffered(run, now: now) }
        guard let run = current, run.phase == .waiting else { return }
        if backend.currentStamp(.clipboard) != run.stamp {
            if run.delivered, run.fill?.hasNext == true { return fillTakenOver(run) }
            let note =
                run.delivered
                ? "another program took the clipboard right after the paste; it was left alone"
                : "another program took the clipboard before the focused window fetched the text; it was left alone"
            if !run.delivered { run.reason = note }
            run.notes.append(note)
            return finish(run)
        }
        if let settle = run.settleDeadline, now >= settle {
            if run.fill?.hasNext == true { return fillNext(run) }
            moveCaret(run)
            restore(run)
            finish(run)
        } else if !run.delivered && now >= run.deadline {
            run.reason = "the focused window did not fetch the text within \(run.timeoutMilliseconds) ms"
            // Put back all the same, so a later paste does not "restore" this snippet.
            restore(run)
            finish(run)
        }
    }

    /// Moves the target's caret back to the template's `{cursor}`: one Left chord per
    /// character after it, sent once the target has the text.
    private func moveCaret(_ run: PasteRun) {
        guard run.caretLeft > 0, let left = try? KeyChord(parsing: "Left") else { return }
        guard run.caretLeft <= Self.maxCaretChords else {
            return run.notes.append(
                "the caret was left at the end: \(run.caretLeft) characters follow the template's {cursor}, more than \(Self.maxCaretChords)"
            )
        }
        do {
            for _ in 0..<run.caretLeft { try injector?.send(left, repressModifiers: false) }
        } catch {
            run.notes.append("the caret was not moved to the template's {cursor}: \(error)")
        }
    }

    /// Puts the saved content back in place of the pasted copy, if that copy is still served.
    ///
    /// The backend keeps the server's rule that a copy made since wins. A secret with
    /// nothing to put back is taken off.
    func restore(_ run: PasteRun) {
        guard let stamp = run.stamp, backend.currentStamp(.clipboard) == stamp else { return }
        guard settings.focusPaste.restore, let previous = run.previous else {
            if run.isSecret { takeOff(run, stamp) }
            return
        }
        do {
            try putBack(previous, replacing: stamp)
        } catch {
            run.notes.append("the clipboard was not restored: \(error)")
            if backend.currentStamp(.clipboard) == stamp, run.isSecret { takeOff(run, stamp) }
        }
        if held[.clipboard].map({ backend.currentStamp(.clipboard) != $0.stamp }) ?? false {
            held[.clipboard] = nil
        }
    }

    /// Puts `previous` back in place of our ownership `stamp` of the clipboard, if that is
    /// still the current one; the restore of a paste and the end of a sequence.
    func putBack(_ previous: PasteRun.Previous, replacing stamp: OwnershipStamp) throws {
        switch previous {
        case .own(let earlier):
            let restored = try backend.own(
                .clipboard, earlier.content, secret: earlier.secret, replacing: stamp)
            held[.clipboard] = HeldSelection(
                stamp: restored, rowID: earlier.rowID, secret: earlier.secret, content: earlier.content)
            // A secret put back keeps the deadline of its copy; a sequence's row put back
            // after a paste goes on.
            moveSecretClear(of: .clipboard, from: earlier.stamp, to: restored)
            if let sequence, sequence.stamp == earlier.stamp { sequence.stamp = restored }
        case .other(let saved):
            let restored = try backend.own(
                .clipboard, .saved(saved), secret: saved.isMarkedSecret, replacing: stamp)
            held[.clipboard] = HeldSelection(
                stamp: restored, rowID: 0, secret: saved.isMarkedSecret, content: .saved(saved))
            // A password manager's text, put back, is a secret copy of ours now.
            if saved.isMarkedSecret { armSecretClear([.clipboard: restored], text: nil) }
        }
    }

    /// `error` as the service answers it: a `CliptabError` as it is, anything else as
    /// `ClipboardUnavailable`.
    static func clipboardError(_ error: any Error) -> CliptabError {
        error as? CliptabError ?? CliptabError(.clipboardUnavailable, "\(error)")
    }

    private func takeOff(_ run: PasteRun, _ stamp: OwnershipStamp) {
        backend.release(.clipboard, stamp)
        held[.clipboard] = nil
        run.notes.append("the pasted secret was taken off the clipboard")
    }

    /// Answers the paste with its result and starts the next.
    ///
    /// A fill's reason is placed at the row it stopped at (`row 3 of 5: …`), and it counts
    /// the rows fetched: those before that row, and that row if it was.
    func finish(_ run: PasteRun) {
        end(run)
        var result = FocusPasteResult(delivered: run.delivered, reason: run.reason, notes: run.notes)
        if let fill = run.fill {
            result.filled = fill.index + (run.delivered ? 1 : 0)
            result.delivered = run.delivered && !fill.hasNext
            if !run.reason.isEmpty { result.reason = fill.placed(run.reason) }
        }
        run.completion(.success(result))
        next()
    }

    /// Answers the paste with `error` and starts the next.
    private func fail(_ run: PasteRun, _ error: CliptabError) {
        end(run)
        run.completion(.failure(error))
        next()
    }

    /// Marks the paste done and announces the hold it left, if it copied.
    private func end(_ run: PasteRun) {
        run.phase = .done
        current = nil
        if run.stamp != nil { announcer.announceClipboard(owned: isOwned, rowID: copiedRowID) }
    }

    private func next() {
        while current == nil, !waiting.isEmpty {
            let run = waiting.removeFirst()
            if run.startBy <= clock() { dropLate(run) } else { begin(run) }
        }
    }

    /// Answers a paste that waited past its start-by time: it never types.
    private func dropLate(_ run: PasteRun) {
        run.phase = .done
        run.completion(
            .failure(
                CliptabError(
                    .limitExceeded,
                    "the paste waited \(Self.maxPasteWaitMilliseconds) ms behind other pastes and was dropped without typing"
                )))
    }
}
