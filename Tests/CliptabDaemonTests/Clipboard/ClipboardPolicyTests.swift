// SPDX-License-Identifier: MIT
import CliptabCore
import CliptabDaemon
import Testing

/// The clipboard policy in process: a recording backend and key injector, a virtual clock.
///
/// Every timer (the secret's clear, the paste's wait, settle and queue) is driven by moving
/// the clock, so none of these tests sleeps.
@Suite struct ClipboardPolicyTests {
    /// A daemon with table "t" (rows "one", "two") and secret table "s" ("hunter2").
    static func daemon(_ config: String = "") throws -> (InProcessDaemon, t: [UInt64], s: [UInt64]) {
        let daemon = try InProcessDaemon(config: config)
        let t = try daemon.makeTable("t", ["one", "two"])
        let s = try daemon.makeTable("s", ["hunter2"])
        try daemon.tables.setSecret("s", true)
        return (daemon, t, s)
    }

    /// One paste's outcome, as the completion got it (nil while it runs).
    final class Outcome {
        var result: Result<FocusPasteResult, Error>?
        var delivered: Bool? { (try? result?.get())?.delivered }
        var reason: String { (try? result?.get())?.reason ?? "" }
        var error: CliptabError? {
            guard case .failure(let error) = result else { return nil }
            return error as? CliptabError
        }
    }

    /// Starts a paste of row 0:`row` of `table` from `caller`.
    @discardableResult
    static func paste(
        _ daemon: InProcessDaemon, _ table: String = "t", row: Int32 = 0, caller: String = ":1.1",
        timeout: UInt32 = 1000
    ) throws -> Outcome {
        let outcome = Outcome()
        try daemon.service.pasteToFocus(
            table, section: 0, row: row, timeoutMilliseconds: timeout, caller: caller
        ) { outcome.result = $0 }
        return outcome
    }

    // MARK: - Secrets

    /// A secret leaves the clipboard at its deadline, not a millisecond before; a newer copy
    /// made meanwhile is never cleared by the older secret's timer.
    @Test func secretClearsAtItsDeadlineAndSparesNewerCopies() throws {
        let (daemon, _, s) = try Self.daemon("[clipboard]\nsecret_clear_ms = 30000\n")
        _ = try daemon.service.copy("s", section: 0, row: 0)
        daemon.advance(29_999)
        #expect(daemon.clipboard.servedText() == "hunter2")
        daemon.advance(1)
        #expect(daemon.clipboard.servedText() == nil && daemon.clipboard.clears == 1)
        #expect(daemon.clipboardChanges.last == .init(owned: false, rowID: 0))

        _ = try daemon.service.copy("s", section: 0, row: 0)
        daemon.advance(10_000)
        _ = try daemon.service.copy("t", section: 0, row: 0)
        daemon.advance(30_000)
        #expect(daemon.clipboard.servedText() == "one", "the secret's timer cleared a later copy")
        #expect(daemon.service.copiedRowID != s[0])
    }

    /// With `selections = clipboard primary` the secret is cleared from both, each on its
    /// own: PRIMARY taken by another program meanwhile is left alone.
    @Test func secretOnPrimaryClearedToo() throws {
        let (daemon, _, _) = try Self.daemon(
            "[clipboard]\nselections = clipboard primary\nsecret_clear_ms = 1000\n")
        _ = try daemon.service.copy("s", section: 0, row: 0)
        #expect(daemon.clipboard.servedText(.primary) == "hunter2")
        daemon.advance(1000)
        #expect(
            daemon.clipboard.servedText(.clipboard) == nil && daemon.clipboard.servedText(.primary) == nil)

        _ = try daemon.service.copy("s", section: 0, row: 0)
        daemon.clipboard.takenByAnotherProgram(offering: "selected", selection: .primary)
        daemon.turn()
        daemon.advance(1000)
        #expect(daemon.clipboard.servedText(.clipboard) == nil)
        #expect(daemon.clipboard.owner[.primary] == .other)
    }

    /// A paste made while a secret is on the clipboard puts it back with the deadline of
    /// its copy: the paste does not give it another 30 s.
    @Test func pasteDoesNotRearmTheSecret() throws {
        let (daemon, _, s) = try Self.daemon("[clipboard]\nsecret_clear_ms = 30000\n")
        _ = try daemon.service.copy("s", section: 0, row: 0)
        daemon.advance(20_000)
        let outcome = try Self.paste(daemon)
        daemon.clipboard.read(by: 7)
        daemon.turn()
        daemon.advance(100)
        #expect(outcome.delivered == true)
        #expect(daemon.clipboard.servedText() == "hunter2" && daemon.service.copiedRowID == s[0])
        daemon.advance(9_899)
        #expect(daemon.clipboard.servedText() == "hunter2")
        daemon.advance(1)
        #expect(daemon.clipboard.servedText() == nil, "the paste re-armed the secret's clear")
    }

    /// A clipboard manager that ignores the hint took the secret over: at the deadline the
    /// clipboard still serving that very text is cleared (taken and given up); a different
    /// text is left alone.
    @Test func secretTakenOverByAManagerIsClearedAllTheSame() throws {
        let (daemon, _, _) = try Self.daemon("[clipboard]\nsecret_clear_ms = 1000\n")
        _ = try daemon.service.copy("s", section: 0, row: 0)
        daemon.clipboard.takenByAnotherProgram(offering: "hunter2")
        daemon.turn()
        daemon.advance(1000)
        #expect(daemon.clipboard.ownerships.last.map { $0.1 == "" && $0.2 } == true)
        #expect(daemon.clipboard.owner[.clipboard] == nil, "the manager's copy of the secret was not cleared")

        _ = try daemon.service.copy("s", section: 0, row: 0)
        daemon.clipboard.takenByAnotherProgram(offering: "the user's own copy")
        daemon.turn()
        let owned = daemon.clipboard.ownerships.count
        daemon.advance(1000)
        #expect(daemon.clipboard.ownerships.count == owned && daemon.clipboard.owner[.clipboard] == .other)
    }

    /// The manager's take-over came just before the deadline and its news is still unread:
    /// our release is a no-op then, and the read-back still clears the secret it serves.
    @Test func secretTakenOverUnseenIsClearedAllTheSame() throws {
        let (daemon, _, _) = try Self.daemon("[clipboard]\nsecret_clear_ms = 1000\n")
        _ = try daemon.service.copy("s", section: 0, row: 0)
        daemon.clipboard.takenUnseen(offering: "hunter2")
        daemon.advance(1000)
        #expect(daemon.clipboard.ownerships.last.map { $0.1 == "" && $0.2 } == true)
        #expect(daemon.clipboard.owner[.clipboard] == nil, "the unseen manager's copy of the secret stayed")

        _ = try daemon.service.copy("s", section: 0, row: 0)
        daemon.clipboard.takenUnseen(offering: "the user's own copy")
        let owned = daemon.clipboard.ownerships.count
        daemon.advance(1000)
        #expect(daemon.clipboard.ownerships.count == owned && daemon.clipboard.owner[.clipboard] == .other)
    }

    // MARK: - Bookkeeping

    /// ClipboardChanged follows the hold: copy, loss to another program, ClearClipboard; a
    /// paste announces once, at its end, and never "not owned" while this daemon owns it.
    @Test func announcementsFollowTheHold() throws {
        let (daemon, t, _) = try Self.daemon()
        _ = try daemon.service.copy("t", section: 0, row: 1)
        #expect(daemon.clipboardChanges == [.init(owned: true, rowID: t[1])])
        let outcome = try Self.paste(daemon, row: 0)
        daemon.clipboard.read(by: 7)
        daemon.turn()
        daemon.advance(100)
        #expect(outcome.delivered == true)
        #expect(daemon.clipboardChanges.last == .init(owned: true, rowID: t[1]))
        #expect(!daemon.clipboardChanges.contains(.init(owned: false, rowID: 0)))
        daemon.clipboard.takenByAnotherProgram(offering: "elsewhere")
        daemon.turn()
        #expect(daemon.clipboardChanges.last == .init(owned: false, rowID: 0))
        _ = try daemon.service.copy("t", section: 0, row: 0)
        daemon.service.clearClipboard()
        #expect(
            daemon.clipboardChanges.suffix(2) == [
                .init(owned: true, rowID: t[0]), .init(owned: false, rowID: 0),
            ])
        daemon.service.clearClipboard()
        #expect(daemon.clipboardChanges.count == 5, "ClearClipboard of nothing announced a change")
    }

    /// At exit the secrets are given up and the rest is handed to a clipboard manager.
    @Test func shutdownClearsSecretsAndHandsOver() throws {
        let (daemon, _, _) = try Self.daemon("[clipboard]\nselections = clipboard primary\n")
        _ = try daemon.service.copy("s", section: 0, row: 0)
        daemon.service.clipboard.shutdown()
        #expect(daemon.clipboard.owner[.clipboard] == nil && daemon.clipboard.owner[.primary] == nil)
        #expect(daemon.clipboard.handOvers == 1)
    }

    // MARK: - Paste

    /// Delivered: another program's content (every format) is read before, put back after
    /// the target's read and the quiet period; reads by others do not count.
    @Test func pasteRestoresEveryFormatAfterTheTargetsRead() throws {
        let (daemon, _, _) = try Self.daemon()
        daemon.clipboard.takenByAnotherProgram(offering: "before")
        let image = RecordingBackend.Saved(
            formats: ["image/png": [0x89, 0x50], "text/html": Array("<b>".utf8)], markedSecret: false)
        daemon.clipboard.offeredSaved = .success(image)
        let outcome = try Self.paste(daemon)
        #expect(daemon.keys.chords == ["ctrl+v"] && daemon.clipboard.servedText() == "one")
        daemon.clipboard.read(by: 99)
        daemon.turn()
        daemon.advance(1000)
        #expect(outcome.delivered == false, "a read by another program counted as the paste")
        #expect(outcome.reason == "the focused window did not fetch the text within 1000 ms")
        #expect(
            daemon.clipboard.servedText() == "saved:image/png,text/html", "not put back after the timeout")

        let second = try Self.paste(daemon)
        #expect(daemon.clipboard.savedReads == 1, "the put-back content was read again instead of kept")
        daemon.clipboard.read(by: 7, delivered: false)
        daemon.clipboard.read(by: 7)
        daemon.turn()
        daemon.advance(49)
        #expect(second.result == nil && daemon.clipboard.servedText() == "one")
        daemon.clipboard.read(by: 7)
        daemon.turn()
        daemon.advance(49)
        #expect(second.result == nil, "the restore came before the target was quiet")
        daemon.advance(1)
        #expect(second.delivered == true && second.reason.isEmpty)
        #expect(daemon.clipboard.servedText() == "saved:image/png,text/html")
    }

    /// A fill goes on to its next row once the target was quiet for
    /// `fillRowQuietMilliseconds` after fetching a row, not `settle_ms` (waiting that between
    /// rows made a five-row fill slower than five rounds of xclip and xdotool); the restore
    /// after the last row still waits `settle_ms`, for programs that read twice.
    @Test func fillMovesOnAfterTheRowQuietTimeAndRestoresAfterSettle() throws {
        let (daemon, _, _) = try Self.daemon()
        daemon.clipboard.takenByAnotherProgram(offering: "before")
        let outcome = Outcome()
        try daemon.service.fill(
            "t", section: 0, row: 0, count: 0, then: .tab, timeoutMilliseconds: 1000, caller: ":1.1"
        ) { outcome.result = $0 }
        daemon.turn()
        #expect(daemon.keys.chords == ["ctrl+v"] && daemon.clipboard.servedText() == "one")
        daemon.clipboard.read(by: 7)
        daemon.turn()
        let quiet = ClipboardPolicy.fillRowQuietMilliseconds
        #expect(quiet < 50, "the quiet time between rows is no shorter than settle_ms")
        daemon.advance(quiet - 1)
        #expect(daemon.keys.chords == ["ctrl+v"], "the next row came before the target was quiet")
        daemon.advance(1)
        #expect(daemon.keys.chords.map { $0.lowercased() } == ["ctrl+v", "tab", "ctrl+v"])
        #expect(daemon.clipboard.servedText() == "two")
        daemon.clipboard.read(by: 7)
        daemon.turn()
        daemon.advance(quiet)
        #expect(outcome.result == nil, "the last row's restore came before settle_ms")
        #expect(daemon.clipboard.servedText() == "two")
        daemon.advance(50 - quiet)
        #expect(outcome.delivered == true && outcome.reason.isEmpty)
        #expect((try? outcome.result?.get())?.filled == 2)
        #expect(daemon.clipboard.servedText() == "saved:UTF8_STRING", "the clipboard was not put back")
    }

    /// No window to type into: the paste answers why at once and copies the text instead,
    /// for a paste by hand; without keys at all it fails and touches nothing.
    @Test func noTargetCopiesInstead() throws {
        let (daemon, t, _) = try Self.daemon()
        daemon.clipboard.takenByAnotherProgram(offering: "kept")
        daemon.keys.refusal = NoPasteTarget("no window has the input focus, so no keystroke was sent")
        let outcome = try Self.paste(daemon)
        #expect(outcome.delivered == false && outcome.reason.contains("no window has the input focus"))
        #expect(outcome.reason.contains("the text is on the clipboard instead"))
        #expect(daemon.clipboard.servedText() == "one" && daemon.keys.chords.isEmpty)
        #expect(daemon.clipboardChanges.last == .init(owned: true, rowID: t[0]))
        daemon.clipboard.takenByAnotherProgram(offering: "kept")
        daemon.keys.refusal = CliptabError(.clipboardUnavailable, "the X server has no XTEST")
        let failed = try Self.paste(daemon)
        #expect(failed.error?.code == .clipboardUnavailable && daemon.clipboard.copies.count == 1)
    }

    /// Another program copies while the target has not fetched yet: the restore never
    /// overwrites it.
    @Test func restoreNeverOverwritesANewerCopy() throws {
        let (daemon, _, _) = try Self.daemon()
        daemon.clipboard.takenByAnotherProgram(offering: "before")
        let outcome = try Self.paste(daemon)
        daemon.clipboard.takenByAnotherProgram(offering: "the user's new copy")
        daemon.advance(10)
        #expect(outcome.delivered == false && outcome.reason.contains("another program took the clipboard"))
        daemon.advance(2000)
        #expect(daemon.clipboard.owner[.clipboard] == .other && daemon.clipboard.copies.count == 1)
    }

    /// The user copies right after the target's read, before this daemon has seen it: the
    /// restore asks to replace the pasted copy only, and the newer copy stays, whether what
    /// it puts back is another program's copy or one of cliptab's own.
    @Test(arguments: [false, true]) func restoreReplacesOnlyThePastedCopy(previousIsOurs: Bool) throws {
        let (daemon, _, _) = try Self.daemon()
        if previousIsOurs {
            _ = try daemon.service.copy("t", section: 0, row: 1)
        } else {
            daemon.clipboard.takenByAnotherProgram(offering: "before")
        }
        let outcome = try Self.paste(daemon)
        daemon.clipboard.read(by: 7)
        daemon.turn()
        daemon.clipboard.takenUnseen(offering: "copied meanwhile")
        daemon.advance(100)
        #expect(outcome.delivered == true)
        #expect(daemon.clipboard.owner[.clipboard] == .other, "the restore overwrote a newer copy")
    }

    /// A Wayland window behind an X clipboard (the X server names no reader for it): the
    /// chord waits until the compositor's bridge asked the new owner for anything, so the
    /// window cannot paste what the compositor offered before; without a bridge it goes
    /// after `bridgeOfferMilliseconds`.
    @Test func aWaylandWindowBehindAnXClipboardWaitsForTheBridge() throws {
        let (daemon, _, _) = try Self.daemon()
        daemon.keys.target = PasteTarget(names: ["org.gnome.Entry"], reader: nil)
        let first = try Self.paste(daemon)
        #expect(daemon.keys.chords.isEmpty && daemon.clipboard.servedText() == "one")
        daemon.advance(400)
        #expect(daemon.keys.chords.isEmpty, "the chord went before the bridge saw the new owner")
        daemon.clipboard.read(by: 3, delivered: false)
        daemon.turn()
        daemon.advance(ClipboardPolicy.bridgeSettleMilliseconds - 1)
        #expect(daemon.keys.chords.isEmpty, "the chord went before the bridge could tell its windows")
        daemon.advance(1)
        #expect(daemon.keys.chords == ["ctrl+v"])
        daemon.clipboard.read(by: 3)
        daemon.turn()
        daemon.advance(100)
        #expect(first.delivered == true)

        let second = try Self.paste(daemon, row: 1)
        daemon.advance(ClipboardPolicy.bridgeOfferMilliseconds - 1)
        #expect(daemon.keys.chords.count == 1)
        daemon.advance(1)
        #expect(
            daemon.keys.chords.count == 2, "no bridge asked: the chord did not go at the offer's deadline")
        daemon.clipboard.read(by: 3)
        daemon.turn()
        daemon.advance(100)
        #expect(second.delivered == true)
    }

    /// A paste touches CLIPBOARD only: PRIMARY keeps what it had, even when copies also
    /// take PRIMARY; a password manager's text put back never reaches PRIMARY.
    @Test func pasteTouchesOnlyTheClipboard() throws {
        let (daemon, _, _) = try Self.daemon("[clipboard]\nselections = clipboard primary\n")
        daemon.clipboard.takenByAnotherProgram(offering: "selected", selection: .primary)
        daemon.clipboard.takenByAnotherProgram(offering: "pa55word", markedSecret: true)
        let outcome = try Self.paste(daemon)
        daemon.clipboard.read(by: 7)
        daemon.turn()
        daemon.advance(100)
        #expect(outcome.delivered == true)
        #expect(daemon.clipboard.ownerships.allSatisfy { $0.0 == .clipboard })
        #expect(daemon.clipboard.owner[.primary] == .other)
        #expect(
            daemon.clipboard.served[.clipboard]?.secret == true, "the marked text came back without its hint")
    }

    /// A paste into a remembered window gives it the focus first; a window gone means no
    /// chord and the text on the clipboard, with the reason.
    @Test func pasteIntoARememberedWindow() throws {
        let (daemon, _, _) = try Self.daemon()
        #expect(daemon.service.clipboard.currentFocus() == 42)
        let outcome = Outcome()
        try daemon.service.pasteToFocus(
            "t", section: 0, row: 0, timeoutMilliseconds: 0, caller: nil, window: 7
        ) {
            outcome.result = $0
        }
        #expect(daemon.keys.refocused == [7] && daemon.keys.chords.count == 1)
        daemon.clipboard.read(by: 7)
        daemon.turn()
        daemon.advance(100)
        #expect(outcome.delivered == true)
        daemon.keys.gone = [8]
        let refused = Outcome()
        try daemon.service.pasteToFocus(
            "t", section: 0, row: 1, timeoutMilliseconds: 0, caller: nil, window: 8
        ) {
            refused.result = $0
        }
        #expect(refused.delivered == false && refused.reason.contains("gone"))
        #expect(daemon.keys.chords.count == 1 && daemon.clipboard.servedText() == "two")
    }

    /// A handful wait behind the paste under way; past that, LimitExceeded at once.
    @Test func pasteQueueIsBounded() throws {
        let (daemon, _, _) = try Self.daemon()
        let first = try Self.paste(daemon)
        let waiting = try (0..<ClipboardPolicy.maxWaitingPastes).map { _ in try Self.paste(daemon) }
        #expect(throws: CliptabError.self) { try Self.paste(daemon) }
        #expect(daemon.keys.chords.count == 1)
        // Each is fetched in turn; all are answered, in order.
        for index in 0...ClipboardPolicy.maxWaitingPastes {
            daemon.clipboard.read(by: 7)
            daemon.turn()
            daemon.advance(100)
            #expect(daemon.keys.chords.count == min(index + 2, ClipboardPolicy.maxWaitingPastes + 1))
        }
        #expect(first.delivered == true && waiting.allSatisfy { $0.delivered == true })
    }

    /// A paste whose caller left the bus, or that waited past its turn, never types.
    @Test func givenUpPastesNeverType() throws {
        let (daemon, _, _) = try Self.daemon()
        daemon.clipboard.holdReads = true
        daemon.clipboard.takenByAnotherProgram(offering: "before")
        let reading = try Self.paste(daemon, caller: ":1.5")
        let queued = try Self.paste(daemon, caller: ":1.5")
        let other = try Self.paste(daemon, caller: ":1.6")
        daemon.service.clipboard.callerGone(":1.5")
        #expect(queued.error != nil)
        daemon.clipboard.completeReads()
        #expect(reading.reason.contains("the caller left") && daemon.clipboard.copies.isEmpty)
        // The other caller's paste began; the next one waits past its turn.
        daemon.clipboard.completeReads()
        #expect(daemon.keys.chords.count == 1)
        let late = try Self.paste(daemon, caller: ":1.7")
        daemon.advance(ClipboardPolicy.maxPasteWaitMilliseconds)
        #expect(late.error?.code == .limitExceeded && other.delivered == false)
        #expect(daemon.keys.chords.count == 1, "a paste typed after its caller gave up")
    }
}
