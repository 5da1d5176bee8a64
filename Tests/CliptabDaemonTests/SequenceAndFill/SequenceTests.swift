// SPDX-License-Identifier: MIT
import CliptabCore
import CliptabDaemon
import Testing

/// Which reads are pastes (`SequencePasteRule`), on a virtual clock.
@Suite struct SequencePasteRuleTests {
    /// A step of a test: a row offered at a time, or a read (reader, begun at, by the manager).
    enum Step {
        case offer(UInt64)
        case read(UInt64?, UInt64, manager: Bool = false)
    }

    /// Plays `steps` on a rule for a row offered at `offeredAt`: the judgments of the reads.
    static func judge(_ offeredAt: UInt64, _ steps: [Step]) -> [Bool] {
        var rule = SequencePasteRule(offeredAt: offeredAt)
        var judgments: [Bool] = []
        for step in steps {
            switch step {
            case .offer(let time): rule.offered(at: time)
            case .read(let reader, let time, let manager):
                judgments.append(
                    rule.isPaste(.init(reader: reader, isClipboardManager: manager, startedAt: time)))
            }
        }
        return judgments
    }

    /// Reads at once after an offer are a manager saving it; from 100 ms on, a window's.
    @Test func readsWithinTheGraceAfterAnOfferDoNotCount() {
        let judged = Self.judge(
            1_000,
            [
                .read(5, 1_000), .read(6, 1_099), .read(7, 1_100), .offer(2_000), .read(nil, 2_050),
                .read(nil, 2_100),
            ])
        #expect(judged == [false, false, true, false, true])
    }

    /// The owner of CLIPBOARD_MANAGER never pastes, however late it reads.
    @Test func theClipboardManagerNeverCounts() {
        #expect(Self.judge(0, [.read(9, 60_000, manager: true), .read(9, 60_000)]) == [false, true])
    }

    /// A window that reads twice within 300 ms pastes once; another window is another paste;
    /// anonymous readers are never merged.
    @Test func oneReaderWithin300msIsOnePaste() {
        let judged = Self.judge(
            0,
            [
                .read(7, 500), .offer(550), .read(7, 799), .read(8, 799), .offer(900), .read(7, 1_100),
                .offer(1_200), .read(nil, 1_300), .offer(1_300), .read(nil, 1_400),
            ])
        #expect(judged == [true, false, true, true, true, true])
    }
}

/// The sequence in process: a recording backend, a virtual clock, reads played by hand.
@Suite struct SequenceTests {
    /// A daemon with table "t" (rows "one", "two", "three") and secret table "s" ("pw1",
    /// "pw2"); another program's image and HTML on the clipboard.
    static func daemon(_ config: String = "") throws -> InProcessDaemon {
        let daemon = try InProcessDaemon(config: config)
        _ = try daemon.makeTable("t", ["one", "two", "three"])
        _ = try daemon.makeTable("s", ["pw1", "pw2"])
        try daemon.tables.setSecret("s", true)
        daemon.clipboard.takenByAnotherProgram(offering: "before")
        daemon.clipboard.offeredSaved = .success(
            RecordingBackend.Saved(
                formats: ["image/png": [0x89, 0x50], "text/html": Array("<b>".utf8)], markedSecret: false))
        return daemon
    }

    static let before = "saved:image/png,text/html"

    /// Starts a sequence and returns where it is, as the completion said.
    @discardableResult
    static func start(
        _ daemon: InProcessDaemon, _ table: String = "t", row: Int32 = 0, count: UInt64 = 0
    ) throws -> SequenceStatus? {
        var answer: Result<SequenceStatus, Error>?
        try daemon.service.startSequence(table, section: 0, row: row, count: count) { answer = $0 }
        return try answer?.get()
    }

    /// A window's paste: it reads 150 ms after the offer, then goes quiet past the settle.
    static func paste(_ daemon: InProcessDaemon, by reader: UInt64 = 7) {
        daemon.advance(150)
        daemon.clipboard.read(by: reader, delivered: false)
        daemon.clipboard.read(by: reader)
        daemon.turn()
        daemon.advance(50)
    }

    /// Each paste puts the next row; reads at once after an offer (a manager) and TARGETS
    /// do not; after the last the other program's every format comes back.
    @Test func eachPastePutsTheNextThenTheClipboardComesBack() throws {
        let daemon = try Self.daemon()
        let status = try Self.start(daemon)
        #expect(status == SequenceStatus(table: "t", section: 0, header: "", position: 1, count: 3))
        #expect(daemon.clipboard.servedText() == "one" && daemon.clipboard.savedReads == 1)
        for (index, next) in ["two", "three"].enumerated() {
            // The manager reads the new owner at once: no paste.
            daemon.clipboard.read(by: 99)
            daemon.turn()
            daemon.advance(1_000)
            daemon.clipboard.read(by: 7, delivered: false)
            daemon.turn()
            daemon.advance(1_000)
            #expect(daemon.service.clipboard.sequenceStatus?.position == index + 1)
            daemon.clipboard.read(by: 7)
            daemon.turn()
            daemon.advance(49)
            #expect(
                daemon.service.clipboard.sequenceStatus?.position == index + 1, "offered before the settle")
            daemon.advance(1)
            #expect(daemon.clipboard.servedText() == next)
            #expect(daemon.service.clipboard.sequenceStatus?.position == index + 2)
        }
        // Another window, 150 ms after the offer (window 7 pasted less than 300 ms ago).
        Self.paste(daemon, by: 8)
        #expect(daemon.clipboard.servedText() == Self.before)
        #expect(daemon.service.clipboard.sequenceStatus == nil)
        #expect(daemon.announced.sequenceChanges.map { $0?.position } == [1, 2, 3, nil])
        #expect(daemon.clipboard.copies.map(\.text) == ["one", "two", "three"])
    }

    /// A window reading twice within 300 ms pastes once, even after the next row is offered.
    @Test func aWindowReadingTwiceIsOnePaste() throws {
        let daemon = try Self.daemon()
        try Self.start(daemon)
        Self.paste(daemon)
        #expect(daemon.clipboard.servedText() == "two")
        daemon.advance(100)
        daemon.clipboard.read(by: 7)
        daemon.turn()
        daemon.advance(1_000)
        #expect(daemon.clipboard.servedText() == "two", "the second read of one paste counted")
        daemon.clipboard.read(by: 7)
        daemon.turn()
        daemon.advance(50)
        #expect(daemon.clipboard.servedText() == "three")
    }

    /// `count` limits the rows; a start row in the middle runs to the section's end.
    @Test func countAndStartRow() throws {
        let daemon = try Self.daemon()
        #expect(try Self.start(daemon, row: 1)?.count == 2)
        #expect(try Self.start(daemon, count: 1)?.count == 1)
        #expect(try Self.start(daemon, row: -1)?.count == 1)
        #expect(throws: CliptabError.self) { try Self.start(daemon, row: 3) }
        Self.paste(daemon)
        #expect(
            daemon.clipboard.servedText() == Self.before, "a replacing sequence lost the clipboard before")
    }

    /// A sequence replaced while it still reads the clipboard before it: the new one reads
    /// it again and puts it back at its end; at exit a running sequence puts it back too.
    @Test func replacedWhileReadingAndShutdown() throws {
        let daemon = try Self.daemon()
        daemon.clipboard.holdReads = true
        var first: Result<SequenceStatus, Error>?
        try daemon.service.startSequence("t", section: 0, row: 0, count: 0) { first = $0 }
        var second: Result<SequenceStatus, Error>?
        try daemon.service.startSequence("t", section: 0, row: 1, count: 0) { second = $0 }
        daemon.clipboard.completeReads()
        #expect(throws: CliptabError.self) { try first?.get() }
        #expect(try second?.get().count == 2 && daemon.clipboard.servedText() == "two")
        daemon.service.clipboard.shutdown()
        #expect(daemon.clipboard.servedText() == Self.before)
    }

    /// Left alone for idle_ms, it ends and puts the clipboard back; not a millisecond before.
    @Test func idleEndsItAndRestores() throws {
        let daemon = try Self.daemon("[sequence]\nidle_ms = 5000\n")
        try Self.start(daemon)
        Self.paste(daemon)
        daemon.advance(4_999)
        #expect(daemon.clipboard.servedText() == "two")
        daemon.advance(1)
        #expect(
            daemon.clipboard.servedText() == Self.before && daemon.service.clipboard.sequenceStatus == nil)
    }

    /// Another program's copy ends it, and nothing is put back over that copy.
    @Test func anotherCopyEndsItWithoutRestore() throws {
        let daemon = try Self.daemon()
        try Self.start(daemon)
        Self.paste(daemon)
        daemon.clipboard.takenByAnotherProgram(offering: "mine")
        daemon.turn()
        #expect(daemon.service.clipboard.sequenceStatus == nil)
        #expect(daemon.announced.sequenceChanges.last == .some(nil))
        daemon.advance(200_000)
        #expect(daemon.clipboard.owner[.clipboard] == .other && daemon.clipboard.copies.count == 2)
    }

    /// `StopSequence` puts the clipboard back; a second stop finds none.
    @Test func stopRestores() throws {
        let daemon = try Self.daemon()
        try Self.start(daemon)
        #expect(daemon.service.clipboard.stopSequence())
        #expect(daemon.clipboard.servedText() == Self.before)
        #expect(!daemon.service.clipboard.stopSequence())
    }

    /// A secret sequence carries the hint on every row, ends within secret_clear_ms, and at
    /// its end a manager serving one of its rows is emptied; with nothing before, the
    /// clipboard is left empty.
    @Test func secretRowsAreClearedAtTheEnd() throws {
        let daemon = try Self.daemon("[clipboard]\nsecret_clear_ms = 10000\n")
        daemon.clipboard.offeredSaved = .failure(CliptabError(.clipboardEmpty, "empty"))
        try Self.start(daemon, "s")
        Self.paste(daemon)
        #expect(
            daemon.clipboard.copies == [
                .init(text: "pw1", isSecret: true), .init(text: "pw2", isSecret: true),
            ])
        daemon.advance(9_999)
        #expect(daemon.clipboard.servedText() == "pw2")
        daemon.advance(1)
        #expect(daemon.clipboard.owner[.clipboard] == nil, "the secret stayed past secret_clear_ms")

        // A manager takes the row over: the end empties it, as a secret's clear does.
        try Self.start(daemon, "s")
        daemon.clipboard.takenByAnotherProgram(offering: "pw1")
        daemon.turn()
        #expect(daemon.clipboard.owner[.clipboard] == nil, "the manager's copy of the secret stayed")

        // Another program's own text is left alone.
        try Self.start(daemon, "s")
        daemon.clipboard.takenByAnotherProgram(offering: "unrelated")
        daemon.turn()
        #expect(daemon.clipboard.owner[.clipboard] == .other)

        // --stop of a secret one leaves nothing behind.
        daemon.clipboard.offeredSaved = .failure(CliptabError(.clipboardEmpty, "empty"))
        try Self.start(daemon, "s")
        daemon.service.clipboard.stopSequence()
        #expect(daemon.clipboard.owner[.clipboard] == nil)
    }

    /// A paste into the focused window during a sequence puts the sequence's row back, and
    /// the sequence goes on from it.
    @Test func aPasteToFocusMeanwhileKeepsTheSequence() throws {
        let daemon = try Self.daemon()
        try Self.start(daemon)
        var result: Result<FocusPasteResult, Error>?
        try daemon.service.pasteToFocus("s", section: 0, row: 0, timeoutMilliseconds: 1000, caller: ":1.1") {
            result = $0
        }
        daemon.clipboard.read(by: 7)
        daemon.turn()
        daemon.advance(50)
        #expect((try? result?.get())?.delivered == true)
        #expect(
            daemon.clipboard.servedText() == "one" && daemon.service.clipboard.sequenceStatus?.position == 1)
        Self.paste(daemon, by: 8)
        #expect(daemon.clipboard.servedText() == "two")
    }
}
