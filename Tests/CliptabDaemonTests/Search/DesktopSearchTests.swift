// SPDX-License-Identifier: MIT
import CliptabContract
import CliptabCore
import DBus
import DaemonTestSupport
import Foundation
import Glibc
import TestSupport
import Testing

/// GNOME Shell's search provider and KRunner's runner, served by the built cliptabd and
/// called the way the shell and KRunner call them (a GLib client on the private bus), with
/// the clipboard read by xclip on Xvfb.
@Suite(.serialized)
struct DesktopSearchTests {
    /// The secret table's text, which no answer may carry.
    static let secret = "hunter2-s3cret"

    /// A desk with table "notes" (section 0 "Greetings": "Hello World", "hello again" named
    /// "greet"; section 1 "Shell": 30 rows "item N") and secret table "vault" (section
    /// "Mail": `secret` named "mail-password", and one row without a name).
    static func desk(config: String, xtest: Bool = true) throws -> PasteDesk {
        let desk = try PasteDesk(xtest: xtest, config: config)
        try desk.call("CreateTable", [s("notes")])
        try desk.call("SetHeader", [s("notes"), i(0), s("Greetings")])
        try desk.call("InsertRow", [s("notes"), i(0), i(0), s("Hello World")])
        try desk.call("InsertRow", [s("notes"), i(0), i(1), s("hello again\nsecond line")])
        try desk.call("SetRowName", [s("notes"), i(0), i(1), s("greet")])
        try desk.call("InsertSection", [s("notes"), i(1), s("Shell"), s("")])
        try desk.call(
            "InsertRows",
            [s("notes"), i(1), i(0), .array(elementSignature: "s", (0..<30).map { s("item \($0)") })])
        try desk.call("CreateTable", [s("vault")])
        try desk.call("SetHeader", [s("vault"), i(0), s("Mail")])
        try desk.call("InsertRow", [s("vault"), i(0), i(0), s(secret)])
        try desk.call("InsertRow", [s("vault"), i(0), i(1), s("mail pin 1234")])
        try desk.call("SetRowName", [s("vault"), i(0), i(0), s("mail-password")])
        try desk.call("SetSecret", [s("vault"), .boolean(true)])
        return desk
    }

    /// The shell's calls: results (named rows first), metas (name and `table › header`),
    /// a subsearch, the cap, and activation copying the row (xclip reads it).
    @Test func gnomeShellSearchProvider() throws {
        let desk = try Self.desk(config: "[search]\nactivate = copy\nmax_results = 5\n")
        let shell = try ShellSearchClient(on: desk)

        let hello = try shell.initialResults(["HELLO"])
        let metas = try shell.metas(hello)
        #expect(metas.map(\.name) == ["greet", "Hello World"])
        #expect(metas.map(\.description) == ["notes › Greetings", "notes › Greetings"])
        #expect(metas.map(\.id) == hello)

        let world = try shell.provider("GetSubsearchResultSet", "(asas)", [hello, ["hello", "world"]])
        let narrowed = try world.values().first as? [String] ?? []
        #expect(try shell.metas(narrowed).map(\.name) == ["Hello World"])
        let helloWorld = try #require(narrowed.first, "the subsearch found nothing")

        // 30 rows match "item": five come back, as configured.
        let items = try shell.initialResults(["shell", "item"])
        #expect(try shell.metas(items).map(\.name) == (0..<5).map { "item \($0)" })
        #expect(try shell.initialResults(["nothing-matches"]).isEmpty)
        // A reload applies a new cap at once.
        try desk.daemon.rewriteConfig("[search]\nactivate = copy\nmax_results = 2\n")
        #expect(try desk.daemon.reload() == [])
        #expect(try shell.initialResults(["item"]).count == 2)

        // Activation puts the row on the clipboard.
        let activated = try shell.provider("ActivateResult", "(sasu)", [helloWorld, ["hello", "world"], 0])
        _ = try activated.values()
        try waitFor("the clipboard to hold the row") { try desk.clipboard() == "Hello World" }

        // A row moved since the search is still found by its id; a deleted one is not.
        try desk.call("MoveRow", [s("notes"), i(0), i(0), i(1), i(0)])
        #expect(try shell.metas(narrowed).map(\.description) == ["notes › Shell"])
        try desk.call("DeleteRow", [s("notes"), i(1), i(0)])
        #expect(try shell.metas(narrowed).isEmpty)
        let gone = try shell.provider("ActivateResult", "(sasu)", [helloWorld, [], 0])
        #expect(gone.errorName == CliptabBus.errorPrefix + "NoSuchRow")
        let bad = try shell.provider("ActivateResult", "(sasu)", ["not an id", [], 0])
        #expect(bad.errorName == CliptabBus.errorPrefix + "InvalidArgument")
        let many = try shell.provider("GetInitialResultSet", "(as)", [Array(repeating: "a", count: 40)])
        #expect(many.errorName == CliptabBus.errorPrefix + "InvalidArgument")
        let long = try shell.provider("GetInitialResultSet", "(as)", [[String(repeating: "x", count: 2_000)]])
        #expect(long.errorName == CliptabBus.errorPrefix + "InvalidArgument")
        let flood = try shell.provider(
            "GetResultMetas", "(as)", [Array(repeating: helloWorld, count: 1_001)])
        #expect(flood.errorName == CliptabBus.errorPrefix + "LimitExceeded")
        // The daemon still answers after every refusal.
        #expect(try shell.initialResults(["greet"]).count == 1)
    }

    /// A secret table's rows are found by name or header only, shown by name or masked, and
    /// no answer carries their text; activating one still copies it (that is its use).
    @Test func secretRowsAreListedByNameOrMasked() throws {
        let desk = try Self.desk(config: "[search]\nactivate = copy\n")
        let shell = try ShellSearchClient(on: desk)
        #expect(try shell.initialResults([Self.secret]).isEmpty)
        #expect(try shell.initialResults(["1234"]).isEmpty)
        let mail = try shell.initialResults(["mail"])
        #expect(try shell.metas(mail).map(\.name) == ["mail-password", SearchHit.mask])
        #expect(!shell.lastLine.contains(Self.secret) && !shell.lastLine.contains("1234"))
        let matches = try shell.runner("Match", "(s)", ["mail"]).values().first as? [[Any]] ?? []
        #expect(matches.map { $0[safe: 1] as? String } == ["mail-password", SearchHit.mask])
        #expect(!shell.lastLine.contains(Self.secret) && !shell.lastLine.contains("1234"))
        let named = try #require(mail.first, "the search by name found nothing")
        _ = try shell.provider("ActivateResult", "(sasu)", [named, ["mail"], 0]).values()
        try waitFor("the clipboard to hold the secret") { try desk.clipboard() == Self.secret }
    }

    /// KRunner's calls: the actions, matches with their subtext, relevance in order, and
    /// Run with an action copying the row; an unknown action is refused.
    @Test func kRunner() throws {
        let desk = try Self.desk(config: "[search]\nactivate = paste\nmax_results = 3\n")
        let runner = try ShellSearchClient(on: desk)
        let actions = try runner.runner("Actions", "()", []).values().first as? [[Any]] ?? []
        #expect(actions.map { $0[safe: 0] as? String } == ["copy", "paste"])

        let matches = try runner.runner("Match", "(s)", ["  hello "]).values().first as? [[Any]] ?? []
        #expect(matches.map { $0[safe: 1] as? String } == ["greet", "Hello World"])
        #expect(
            matches.map { ($0[safe: 5] as? [String: Any])?["subtext"] as? String } == [
                "notes › Greetings", "notes › Greetings",
            ])
        let relevance = matches.compactMap { $0[safe: 4] as? Double }
        #expect(relevance.count == 2 && relevance[0] > relevance[1])
        let items = try runner.runner("Match", "(s)", ["item"]).values().first as? [[Any]] ?? []
        #expect(items.count == 3)

        let id = try #require(matches.first?[safe: 0] as? String)
        _ = try runner.runner("Run", "(ss)", [id, "copy"]).values()
        try waitFor("the clipboard to hold the named row") {
            try desk.clipboard() == "hello again\nsecond line"
        }
        let unknown = try runner.runner("Run", "(ss)", [id, "delete"])
        #expect(unknown.errorName == CliptabBus.errorPrefix + "InvalidArgument")
        _ = try runner.runner("Teardown", "()", []).values()
    }

    /// KRunner's `Run` does the action chosen, whatever `[search] activate` says: with
    /// `activate = paste`, copy copies and types nothing (the row stays on the clipboard);
    /// paste types into the focused Tk entry; with `activate = copy`, paste still types.
    @Test func kRunnerRunsTheChosenAction() throws {
        let desk = try Self.desk(
            config:
                "[search]\nactivate = paste\n[paste_to_focus]\ntimeout_ms = \(DaemonProcess.pasteDeadlineMilliseconds)\n"
        )
        try desk.ownClipboardElsewhere(Array("before".utf8))
        let field = try TextFieldProgram.tk(on: desk)
        let runner = try ShellSearchClient(on: desk)
        func id(_ query: String) throws -> String {
            let matches = try runner.runner("Match", "(s)", [query]).values().first as? [[Any]] ?? []
            return try #require(matches.first?[safe: 0] as? String, "no match for \(query)")
        }

        _ = try runner.runner("Run", "(ss)", [try id("world"), "copy"]).values()
        #expect(try desk.clipboard() == "Hello World", "Run with copy did not leave the row on the clipboard")
        // Run answers once its paste is over: had the copy typed, its text would lead.
        _ = try runner.runner("Run", "(ss)", [try id("item 3"), "paste"]).values()
        #expect(field.waitForText("item 3"), "the entry holds \(field.text.debugDescription)")
        #expect(try desk.clipboard() == "Hello World")

        try desk.daemon.rewriteConfig(
            "[search]\nactivate = copy\n[paste_to_focus]\ntimeout_ms = \(DaemonProcess.pasteDeadlineMilliseconds)\n"
        )
        #expect(try desk.daemon.reload() == [])
        _ = try runner.runner("Run", "(ss)", [try id("item 4"), "paste"]).values()
        #expect(field.waitForText("item 3item 4"), "the entry holds \(field.text.debugDescription)")
        #expect(try desk.clipboard() == "Hello World")
    }

    /// `activate = paste`: the row lands in the focused window (a Tk entry) by XTEST.
    @Test func activationPastesIntoTheFocusedWindow() throws {
        let desk = try Self.desk(
            config:
                "[search]\nactivate = paste\n[paste_to_focus]\ntimeout_ms = \(DaemonProcess.pasteDeadlineMilliseconds)\n"
        )
        try desk.ownClipboardElsewhere(Array("before".utf8))
        let field = try TextFieldProgram.tk(on: desk)
        let shell = try ShellSearchClient(on: desk)
        let world = try #require(try shell.initialResults(["world"]).first, "the search found nothing")
        _ = try shell.provider("ActivateResult", "(sasu)", [world, ["world"], 0]).values()
        #expect(field.waitForText("Hello World"), "the entry holds \(field.text.debugDescription)")
        #expect(try desk.clipboard() == "before")
    }

    /// `activate = paste` on a display without XTEST copies instead.
    @Test func pasteFallsBackToCopy() throws {
        let desk = try Self.desk(config: "[search]\nactivate = paste\n", xtest: false)
        let shell = try ShellSearchClient(on: desk)
        let world = try #require(try shell.initialResults(["world"]).first, "the search found nothing")
        _ = try shell.provider("ActivateResult", "(sasu)", [world, [], 0]).values()
        try waitFor("the clipboard to hold the row") { try desk.clipboard() == "Hello World" }
        let matches = try shell.runner("Match", "(s)", ["world"]).values().first as? [[Any]] ?? []
        _ = try shell.runner("Run", "(ss)", [try #require(matches.first?[safe: 0] as? String), ""]).values()
    }
}

extension Array {
    /// The element at `index`, or nil past the end: a reply shorter than expected fails an
    /// expectation instead of crashing the test process (and every suite after it).
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
