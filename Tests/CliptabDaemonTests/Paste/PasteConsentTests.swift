// SPDX-License-Identifier: MIT
import CliptabCore
import CliptabDaemon
import Testing

/// The paste's wait for an injector that becomes able to type later (the RemoteDesktop
/// portal's consent dialog), in process with a virtual clock: bounded, answered at once when
/// refused, and followed by a pause before the chord.
@Suite struct PasteConsentTests {
    /// No answer within `maxPrepareMilliseconds`: the paste answers why, with the text left
    /// on the clipboard and no key sent.
    @Test func consentWaitIsBounded() throws {
        let (daemon, _, _) = try ClipboardPolicyTests.daemon()
        daemon.clipboard.takenByAnotherProgram(offering: "before")
        daemon.keys.defersPrepare = true
        let outcome = try ClipboardPolicyTests.paste(daemon)
        daemon.advance(ClipboardPolicy.maxPrepareMilliseconds - 1)
        #expect(outcome.result == nil)
        daemon.advance(1)
        #expect(outcome.delivered == false)
        #expect(
            outcome.reason.hasPrefix("the desktop did not let cliptabd type within 20 s"), "\(outcome.reason)"
        )
        #expect(outcome.reason.hasSuffix("the text is on the clipboard instead, to paste by hand"))
        #expect(daemon.clipboard.servedText() == "one" && daemon.keys.chords.isEmpty)
        // A consent given after the paste gave up types nothing for it.
        daemon.keys.pendingPrepare?(nil)
        daemon.advance(1000)
        #expect(daemon.keys.chords.isEmpty)
    }

    /// Refused while the paste waits: answered at once with the injector's reason, the text
    /// on the clipboard.
    @Test func refusalAnswersAtOnce() throws {
        let (daemon, _, _) = try ClipboardPolicyTests.daemon()
        daemon.clipboard.takenByAnotherProgram(offering: "before")
        daemon.keys.defersPrepare = true
        let outcome = try ClipboardPolicyTests.paste(daemon)
        daemon.advance(3000)
        daemon.keys.pendingPrepare?(NoPasteTarget("you refused"))
        #expect(outcome.delivered == false)
        #expect(outcome.reason == "you refused; the text is on the clipboard instead, to paste by hand")
        #expect(daemon.clipboard.servedText() == "one" && daemon.keys.chords.isEmpty)
    }

    /// Granted later than at once: the chord waits `afterConsentMilliseconds` (the dialog
    /// gives the focus back), then the paste runs as always and puts the clipboard back.
    @Test func chordWaitsAfterTheConsent() throws {
        let (daemon, _, _) = try ClipboardPolicyTests.daemon()
        daemon.clipboard.takenByAnotherProgram(offering: "before")
        daemon.keys.defersPrepare = true
        let outcome = try ClipboardPolicyTests.paste(daemon)
        daemon.advance(5000)
        daemon.keys.pendingPrepare?(nil)
        daemon.advance(ClipboardPolicy.afterConsentMilliseconds - 1)
        #expect(daemon.keys.chords.isEmpty && daemon.clipboard.servedText() != "one")
        daemon.advance(1)
        #expect(daemon.keys.chords == ["ctrl+v"] && daemon.clipboard.servedText() == "one")
        daemon.clipboard.read(by: 7)
        daemon.turn()
        daemon.advance(50)
        #expect(outcome.delivered == true && outcome.reason.isEmpty)
        #expect(
            daemon.clipboard.servedText() == "saved:UTF8_STRING",
            "the other program's content was not put back")
    }

    /// The caller leaves the bus while the consent dialog is up: once the consent comes,
    /// nothing is typed and the clipboard is not touched; the paste answers why.
    @Test func callerGoneDuringTheConsentTypesNothing() throws {
        let (daemon, _, _) = try ClipboardPolicyTests.daemon()
        daemon.clipboard.takenByAnotherProgram(offering: "before")
        daemon.keys.defersPrepare = true
        let outcome = try ClipboardPolicyTests.paste(daemon, caller: ":1.9")
        daemon.advance(2000)
        daemon.service.clipboard.callerGone(":1.9")
        daemon.keys.pendingPrepare?(nil)
        daemon.advance(ClipboardPolicy.afterConsentMilliseconds)
        daemon.clipboard.completeReads()
        daemon.advance(ClipboardPolicy.maxPrepareMilliseconds)
        #expect(daemon.keys.chords.isEmpty, "a paste typed for a caller that had left")
        #expect(daemon.clipboard.copies.isEmpty && daemon.clipboard.servedText() != "one")
        #expect(outcome.delivered == false && outcome.reason == "the caller left before the paste was typed")
    }

    /// Ready at once (every injector but the portal's first paste): no pause.
    @Test func readyAtOnceTypesAtOnce() throws {
        let (daemon, _, _) = try ClipboardPolicyTests.daemon()
        _ = try ClipboardPolicyTests.paste(daemon)
        #expect(daemon.keys.chords == ["ctrl+v"])
    }
}
