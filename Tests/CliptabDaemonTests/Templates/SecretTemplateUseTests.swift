// SPDX-License-Identifier: MIT
import CliptabCore
import CliptabDaemon
import Testing

/// A template filled in with a secret is a secret copy, in process with a recording clipboard
/// and a virtual clock: a secret table's row through `{snippet:…}`, or a clipboard text its
/// owner marked through `{clipboard}`, makes every selection carry the hint, be cleared at
/// `secret_clear_ms`, and the answer say it is secret; other templates stay plain copies.
@Suite struct SecretTemplateUseTests {
    /// Secret table "vault" (row "bank"), plain table "notes" (row "memo"), and templates
    /// table "t": 0 includes the bank row, 1 the clipboard, 2 the memo, 3 nests the bank row
    /// one level deeper through "t/outer" → "t/inner".
    static func daemon(_ config: String) throws -> InProcessDaemon {
        let daemon = try InProcessDaemon(config: config)
        try daemon.makeTable("vault", ["hunter2"])
        try daemon.tables.setRowName("vault", section: 0, row: 0, rowName: "bank")
        try daemon.tables.setSecret("vault", true)
        try daemon.makeTable("notes", ["milk"])
        try daemon.tables.setRowName("notes", section: 0, row: 0, rowName: "memo")
        try daemon.makeTable(
            "t",
            [
                "pin: {snippet:vault/bank}", "from {clipboard}", "buy {snippet:notes/memo}",
                "{snippet:outer}",
                "[{snippet:inner}]", "pin {snippet:vault/bank}",
            ])
        try daemon.tables.setRowName("t", section: 0, row: 4, rowName: "outer")
        try daemon.tables.setRowName("t", section: 0, row: 5, rowName: "inner")
        try daemon.tables.setTemplates("t", true)
        return daemon
    }

    /// Copies row `row` of "t" (through `PerformActionWithInputs`' way when `action` is
    /// given); the answer the completion got.
    static func copy(_ daemon: InProcessDaemon, row: Int32, action: String? = nil) throws -> UsedText {
        var answer: Result<UsedText, Error>?
        if let action {
            try daemon.service.perform("t", action: action, section: 0, row: row) { answer = $0 }
        } else {
            try daemon.service.copy("t", section: 0, row: row) { answer = $0 }
        }
        return try #require(answer).get()
    }

    /// Every ownership since `start`: (selection, text, secret).
    static func ownerships(_ daemon: InProcessDaemon, since start: Int) -> [String] {
        daemon.clipboard.ownerships.dropFirst(start).map { "\($0.0) \($0.1) \($0.2)" }
    }

    /// `{snippet:vault/bank}`, directly and two snippets deep, is a secret copy.
    ///
    /// The hint on CLIPBOARD and PRIMARY, cleared from both at the deadline and not a
    /// millisecond before; the answer says secret. A snippet of a plain table is a plain copy
    /// that stays.
    @Test func snippetOfASecretTableIsASecretCopy() throws {
        let daemon = try Self.daemon("[clipboard]\nsecret_clear_ms = 5000\nselections = clipboard primary\n")
        for row: Int32 in [0, 3] {
            let start = daemon.clipboard.ownerships.count
            let used = try Self.copy(daemon, row: row)
            let text = row == 0 ? "pin: hunter2" : "[pin hunter2]"
            #expect(used == UsedText(text: text, isSecret: true), "row \(row)")
            #expect(
                Self.ownerships(daemon, since: start) == ["CLIPBOARD \(text) true", "PRIMARY \(text) true"])
            daemon.advance(4999)
            #expect(daemon.clipboard.servedText() == text && daemon.clipboard.servedText(.primary) == text)
            daemon.advance(1)
            #expect(daemon.clipboard.servedText() == nil, "row \(row) outlived secret_clear_ms on CLIPBOARD")
            #expect(daemon.clipboard.servedText(.primary) == nil, "row \(row) outlived it on PRIMARY")
        }
        let start = daemon.clipboard.ownerships.count
        #expect(try Self.copy(daemon, row: 2) == UsedText(text: "buy milk", isSecret: false))
        #expect(
            Self.ownerships(daemon, since: start) == ["CLIPBOARD buy milk false", "PRIMARY buy milk false"])
        daemon.advance(60_000)
        #expect(daemon.clipboard.servedText() == "buy milk")
    }

    /// `{clipboard}` over a text its owner marked is secret; over an unmarked one it is not;
    /// over cliptabd's own secret copy it is (that copy counts as marked).
    @Test func clipboardMarkedSecretMakesASecretCopy() throws {
        let daemon = try Self.daemon("[clipboard]\nsecret_clear_ms = 2000\n")
        daemon.clipboard.takenByAnotherProgram(offering: "correct horse", markedSecret: true)
        #expect(try Self.copy(daemon, row: 1) == UsedText(text: "from correct horse", isSecret: true))
        #expect(daemon.clipboard.copies.last == .init(text: "from correct horse", isSecret: true))
        daemon.advance(2000)
        #expect(daemon.clipboard.servedText() == nil, "the filled-in secret was not cleared")

        daemon.clipboard.takenByAnotherProgram(offering: "open text")
        #expect(try Self.copy(daemon, row: 1) == UsedText(text: "from open text", isSecret: false))
        daemon.advance(10_000)
        #expect(daemon.clipboard.servedText() == "from open text")

        _ = try Self.copy(daemon, row: 0)
        #expect(try Self.copy(daemon, row: 1) == UsedText(text: "from pin: hunter2", isSecret: true))
    }

    /// Cut and the context-menu action answer the same secrecy as copy; a cut secret is
    /// cleared too.
    @Test func cutAndPerformSaySecret() throws {
        let daemon = try Self.daemon("[clipboard]\nsecret_clear_ms = 1000\n")
        #expect(
            try Self.copy(daemon, row: 0, action: "copy") == UsedText(text: "pin: hunter2", isSecret: true))
        #expect(try Self.copy(daemon, row: 2, action: "copy") == UsedText(text: "buy milk", isSecret: false))
        #expect(
            try Self.copy(daemon, row: 0, action: "cut") == UsedText(text: "pin: hunter2", isSecret: true))
        #expect(try daemon.texts("t").first == "from {clipboard}")
        daemon.advance(1000)
        #expect(daemon.clipboard.servedText() == nil)
        #expect(
            try Self.copy(daemon, row: 0, action: "delete")
                == UsedText(text: "from {clipboard}", isSecret: false))
    }

    /// A paste into the focused window of a row filled in with a secret: the pasted copy
    /// carries the hint, and with nothing to put back it is taken off after the paste.
    @Test func pasteOfAFilledInSecret() throws {
        let daemon = try Self.daemon("[clipboard]\nsecret_clear_ms = 30000\n")
        let outcome = try ClipboardPolicyTests.paste(daemon, "t", row: 0)
        #expect(daemon.clipboard.copies.last == .init(text: "pin: hunter2", isSecret: true))
        daemon.clipboard.read(by: 7)
        daemon.turn()
        daemon.advance(1000)
        #expect(outcome.delivered == true)
        #expect(daemon.clipboard.servedText() == nil, "the pasted secret stayed on the clipboard")
    }
}
