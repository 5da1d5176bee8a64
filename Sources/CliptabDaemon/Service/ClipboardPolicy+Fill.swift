// SPDX-License-Identifier: MIT
import CliptabCore
import KeyChords

/// The fill: rows typed into the focused window one by one, as pastes are (save the
/// clipboard, copy, chord, wait for the fetch), with a key between two rows (Tab, Return)
/// and the clipboard put back once, at the end.
///
/// A fill is one `PasteRun` that holds the clipboard from its first row to its restore: it
/// queues behind other pastes as one, waits for the injector once, and each of its rows
/// waits for its own fetch, bounded by the run's timeout. Every wait is a deadline of the
/// loop, so the daemon serves other calls meanwhile.
extension ClipboardPolicy {
    /// Starts a fill of `rows` from `caller`: each is copied and its chord sent once the one
    /// before was fetched and the target went quiet, `separator` sent between two rows.
    ///
    /// Throws `ClipboardUnavailable` when nothing can send keys, and `LimitExceeded` when
    /// `maxWaitingPastes` already wait. `completion` runs from the loop with how many rows
    /// were fetched and, at the first failure, why (`row 3 of 5: …`).
    public func fillFocus(
        _ rows: [(text: String, isSecret: Bool, rowID: UInt64)], separator: KeyChord?,
        timeoutMilliseconds: Int,
        caller: String?, completion: @escaping (Result<FocusPasteResult, CliptabError>) -> Void
    ) throws {
        precondition(!rows.isEmpty, "a fill needs a row")
        try checkCanPaste()
        let timeout = timeoutMilliseconds > 0 ? timeoutMilliseconds : settings.focusPaste.timeoutMilliseconds
        let first = rows[0]
        let run = PasteRun(
            text: first.text, isSecret: first.isSecret, rowID: first.rowID, timeoutMilliseconds: timeout,
            caller: caller, startBy: clock() + Self.maxPasteWaitMilliseconds, completion: completion)
        run.fill = FillPlan(
            rows: rows.map { FillPlan.Row(text: $0.text, isSecret: $0.isSecret, rowID: $0.rowID) },
            separator: separator)
        try enqueue(run)
    }

    /// How long the target must be quiet after fetching a fill's row before the next row
    /// replaces it on the clipboard, in milliseconds (at most `settle_ms`).
    ///
    /// `settle_ms` (50 by default) waits out programs that read the clipboard twice after
    /// one paste, before the person's own content comes back; between two rows the window
    /// has already taken the whole text, and the next row's keys queue behind that fetch.
    /// Four such waits made a five-row fill 0.79x of five rounds of `xclip` and `xdotool`
    /// on Xvfb; with 10 ms, 0.26x and no wrong field under load (`cliptab-bench fill`).
    public static let fillRowQuietMilliseconds: UInt64 = 10

    /// How long a fill's row is offered before its keys, in milliseconds, where the backend
    /// tells readers apart only by the keystrokes before their reads (Wayland).
    ///
    /// Clipboard managers (`wl-paste --watch`, cliphist) read every new offer at once; a read
    /// that began after the row's chord would count as the target's fetch, and the row
    /// before's restore could reach the target instead (measured with `wl-paste --watch`
    /// and a GTK form: the third field got the clipboard put back). Reads that begin while
    /// the row is only offered carry an earlier mark and never count.
    public static let fillOfferMilliseconds: UInt64 = 100
    /// How long a paste's offer waits at most for the compositor's bridge of the X and
    /// Wayland clipboards to ask for it (`PasteRun.awaitsBridge`); a compositor without
    /// one has the keys after this.
    public static let bridgeOfferMilliseconds: UInt64 = 500
    /// How long the keys wait after the bridge asked for the new offer: it reads the answer
    /// and announces the offer to its Wayland clients meanwhile.
    public static let bridgeSettleMilliseconds: UInt64 = 50

    /// The row under way was fetched and the target went quiet: copies the next row, then
    /// sends the separator and its chord (after `fillOfferMilliseconds` where managers'
    /// reads cannot be told from the target's); a caller gone stops the fill with the
    /// clipboard put back.
    func fillNext(_ run: PasteRun) {
        guard var fill = run.fill else { return }
        fill.index += 1
        run.fill = fill
        let row = fill.rows[fill.index]
        guard !run.cancelled else {
            run.delivered = false
            run.reason = "the caller left the bus; the fill stopped before this row"
            restore(run)
            return finish(run)
        }
        run.text = row.text
        run.isSecret = row.isSecret
        run.rowID = row.rowID
        run.delivered = false
        guard offer(run) else { return }
        guard !offerToBridge(run) else { return }
        guard backend.capabilities.readersByKeystrokes else {
            return sendKeys(run, separator: fill.separator)
        }
        run.phase = .offering
        run.deadline = clock() + Self.fillOfferMilliseconds
    }

    /// A fill's offered row: its keys once the offer was up for `fillOfferMilliseconds`,
    /// unless another program took the clipboard meanwhile (left alone; the fill stops).
    func fillOffered(_ run: PasteRun, now: UInt64) {
        if backend.currentStamp(.clipboard) != run.stamp {
            run.reason = "another program took the clipboard before this row was typed; it was left alone"
            return finish(run)
        }
        if now >= run.deadline { sendOfferedKeys(run) }
    }

    /// The keys of an offered row: a fill's separator before any row but its first, then
    /// the chord.
    func sendOfferedKeys(_ run: PasteRun) {
        run.awaitsBridge = false
        sendKeys(run, separator: run.fill.flatMap { $0.index > 0 ? $0.separator : nil })
    }

    /// Another program took the clipboard after a row was fetched: the rest is not typed (its
    /// content is left alone), and the reason is placed at the next row.
    func fillTakenOver(_ run: PasteRun) {
        guard var fill = run.fill else { return }
        fill.index += 1
        run.fill = fill
        run.delivered = false
        run.reason = "another program took the clipboard after the row before was fetched; it was left alone"
        finish(run)
    }
}
