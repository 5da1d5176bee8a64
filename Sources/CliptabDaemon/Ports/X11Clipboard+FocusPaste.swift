// SPDX-License-Identifier: MIT
import CliptabCore
import Posix
import X11Selection

/// The paste into the focused window: read what is on the clipboard, copy, send the
/// keystroke, watch the target fetch the text, restore.
///
/// cliptabd owns the selection, so it sees the fetch happen instead of guessing with a
/// sleep. The restore waits for the first complete text transfer to the focused window's
/// client after the keystroke, then for that client to be quiet for `settle_ms`
/// (programs ask for TARGETS first, or for a second type, or twice); requests of other
/// clients (a clipboard manager fetching every new owner's text) prove nothing and are
/// ignored. Everything runs on the loop: the daemon answers every client meanwhile.
extension X11Clipboard: FocusPastePort {
    /// Starts a paste; it waits behind one under way.
    public func pasteToFocus(
        _ text: String, isSecret: Bool, timeoutMilliseconds: Int,
        completion: @escaping (Result<FocusPasteOutcome, CliptabError>) -> Void
    ) {
        let timeout = timeoutMilliseconds > 0 ? timeoutMilliseconds : settings.focusPaste.timeoutMilliseconds
        let run = FocusPasteRun(
            text: text, isSecret: isSecret, timeoutMilliseconds: timeout, completion: completion)
        if focusPastes.current != nil {
            focusPastes.waiting.append(run)
            return
        }
        begin(run)
    }

    private func begin(_ run: FocusPasteRun) {
        focusPastes.current = run
        guard let service = connectIfNeeded(now: MonotonicClock.milliseconds(), force: true) else {
            return fail(run, unavailable())
        }
        do {
            try service.checkKeystrokes()
        } catch {
            return fail(run, CliptabError(.clipboardUnavailable, error.description))
        }
        run.phase = .readingPrevious
        if service.owns(.clipboard), let owned = service.ownedText(.clipboard) {
            let secret = secretClear != nil && secretClear?.acquired == service.acquisitionTime(.clipboard)
            run.previous = (owned, secret, true)
            return sendKeystroke(run)
        }
        service.readMarkedText(
            .clipboard, timeoutMilliseconds: settings.readTimeoutMilliseconds, maxBytes: settings.maxReadBytes
        ) { [weak self] result in
            guard let self, self.focusPastes.current === run, run.phase == .readingPrevious else { return }
            switch result {
            case .success(let read):
                // A text its owner marked as a password is put back as a secret copy:
                // with the hint, kept from clipboard managers, cleared after the timeout.
                run.previous = (read.bytes, read.markedSecret, false)
            case .failure(let error):
                run.outcome.notes.append("nothing to restore after the paste: \(error.message)")
            }
            self.sendKeystroke(run)
        }
    }

    private func sendKeystroke(_ run: FocusPasteRun) {
        guard let service, !service.isBroken else { return fail(run, unavailable()) }
        do {
            try copy(run.text, isSecret: run.isSecret)
        } catch {
            return fail(run, error as? CliptabError ?? CliptabError(.clipboardUnavailable, "\(error)"))
        }
        run.acquired = service.acquisitionTime(.clipboard) ?? .current
        run.outcome.ownsClipboard = true
        guard let focus = service.focusedWindow() else {
            run.outcome.notes.append("no window has the input focus, so no keystroke was sent")
            return timedOut(run)
        }
        let paste = settings.focusPaste
        let chord = paste.chord(instanceName: focus.instanceName, className: focus.className)
        run.target = focus.client != .none ? focus.client : focus.window
        do {
            try service.sendKeystroke(chord, repressModifiers: paste.repressModifiers)
        } catch {
            // Nothing was typed: put the clipboard back as it was.
            restore(run)
            return fail(run, CliptabError(.clipboardUnavailable, error.description))
        }
        run.phase = .waiting
        run.deadline = MonotonicClock.milliseconds() + UInt64(run.timeoutMilliseconds)
    }

    /// Follows the target's requests: a complete text transfer to its client is the paste.
    func focusPasteTransfer(_ transfer: SelectionTransfer) {
        guard let run = focusPastes.current, run.phase == .waiting, transfer.selection == .clipboard,
            transfer.acquisitionTime == run.acquired, let service,
            service.sameClient(transfer.requestor, run.target)
        else { return }
        if transfer.textDelivered { run.outcome.delivered = true }
        // Any further request of the target's pushes the restore back.
        if run.outcome.delivered {
            run.settleDeadline =
                MonotonicClock.milliseconds() + UInt64(settings.focusPaste.settleMilliseconds)
        }
    }

    /// Restores after the quiet period, gives up at the timeout, and steps aside when
    /// another program took the clipboard.
    func processFocusPaste(now: UInt64) {
        guard let run = focusPastes.current, run.phase == .waiting else { return }
        guard let service, !service.isBroken else { return fail(run, unavailable()) }
        if service.acquisitionTime(.clipboard) != run.acquired {
            run.outcome.ownsClipboard = false
            run.outcome.notes.append(
                run.outcome.delivered
                    ? "another program took the clipboard right after the paste; it was left alone"
                    : "another program took the clipboard before the focused window fetched the text; it was left alone"
            )
            return finish(run)
        }
        if let settle = run.settleDeadline, now >= settle {
            restore(run)
            finish(run)
        } else if !run.outcome.delivered && now >= run.deadline {
            run.outcome.notes.append(
                "the focused window did not fetch the text within \(run.timeoutMilliseconds) ms")
            timedOut(run)
        }
    }

    /// No fetch: the text stays on the clipboard, except a secret.
    private func timedOut(_ run: FocusPasteRun) {
        if run.isSecret { takeSecretOff(run) }
        finish(run)
    }

    private func restore(_ run: FocusPasteRun) {
        guard let service, service.acquisitionTime(.clipboard) == run.acquired else {
            run.outcome.ownsClipboard = false
            return
        }
        guard settings.focusPaste.restore else {
            if run.isSecret { takeSecretOff(run) }
            return
        }
        guard let previous = run.previous else {
            if run.isSecret { takeSecretOff(run) }
            return
        }
        do {
            try copy(String(decoding: previous.text, as: UTF8.self), isSecret: previous.isSecret)
            run.outcome.restored = true
            run.outcome.restoredOwnCopy = previous.ownCopy
        } catch {
            run.outcome.notes.append("the clipboard could not be restored: \(error)")
            if run.isSecret { takeSecretOff(run) }
        }
    }

    private func takeSecretOff(_ run: FocusPasteRun) {
        clear()
        run.outcome.ownsClipboard = false
        run.outcome.notes.append("the pasted secret was taken off the clipboard")
    }

    private func finish(_ run: FocusPasteRun) {
        run.phase = .done
        focusPastes.current = nil
        run.completion(.success(run.outcome))
        next()
    }

    private func fail(_ run: FocusPasteRun, _ error: CliptabError) {
        run.phase = .done
        focusPastes.current = nil
        run.completion(.failure(error))
        next()
    }

    private func next() {
        guard focusPastes.current == nil, !focusPastes.waiting.isEmpty else { return }
        begin(focusPastes.waiting.removeFirst())
    }
}
