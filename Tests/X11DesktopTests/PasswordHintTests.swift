// SPDX-License-Identifier: MIT
import Posix
import TestSupport
import Testing
import X11Desktop

/// The password-manager hint as requestor: a text is marked secret exactly when its owner
/// offers `x-kde-passwordManagerHint` with the value `secret`, as KeePassXC does.
@Suite(.serialized)
struct PasswordHintTests {
    private static let tkPython = python(running: "import tkinter")

    /// Reads CLIPBOARD while a Tk owner holds `text` with the hint `mode` (see
    /// `MarkedClipboardOwner`).
    private func read(ownedBy mode: String, text: String) throws -> SelectionText {
        let tk = try #require(Self.tkPython, "python3 with tkinter is missing (python3-tk)")
        let harness = try Harness()
        let owner = try harness.startOwner(
            [tk, "-c", MarkedClipboardOwner.script, mode], text: Array(text.utf8))
        defer { owner.terminate(graceMilliseconds: 1000) }
        let result = try #require(harness.readMarked())
        #expect(harness.service.pendingReadCount == 0)
        return try result.get()
    }

    @Test func hintSecretMarksTheText() throws {
        let read = try read(ownedBy: "secret", text: "hunter2 ü")
        #expect(read.bytes == Array("hunter2 ü".utf8))
        #expect(read.markedSecret)
    }

    @Test(arguments: ["none", "public", "secret ", "refuse"])
    func anythingElseMarksNothing(mode: String) throws {
        let read = try read(ownedBy: mode, text: "plain text")
        #expect(read.bytes == Array("plain text".utf8), "hint \(mode)")
        #expect(!read.markedSecret, "hint \(mode)")
    }

    /// Our own text is marked by our own secret flag, without a round trip.
    @Test func ownTextCarriesItsSecretFlag() throws {
        let harness = try Harness()
        try harness.service.own(.clipboard, text: Array("hunter2".utf8), secret: true)
        try harness.service.own(.primary, text: Array("open".utf8), secret: false)
        var clipboard: Result<SelectionText, SelectionReadError>?
        var primary: Result<SelectionText, SelectionReadError>?
        harness.service.readMarkedText(.clipboard, timeoutMilliseconds: 1000, maxBytes: 100) {
            clipboard = $0
        }
        harness.service.readMarkedText(.primary, timeoutMilliseconds: 1000, maxBytes: 100) { primary = $0 }
        #expect(try clipboard?.get().markedSecret == true)
        #expect(try clipboard?.get().bytes == Array("hunter2".utf8))
        #expect(try primary?.get().markedSecret == false)
    }

    /// Reads of a marked text queue like any other: each completes, in order, with its mark.
    @Test func queuedReadsOfAMarkedTextEachGetTheMark() throws {
        let tk = try #require(Self.tkPython, "python3 with tkinter is missing (python3-tk)")
        let harness = try Harness()
        let owner = try harness.startOwner(
            [tk, "-c", MarkedClipboardOwner.script, "secret"], text: Array("pw".utf8))
        defer { owner.terminate(graceMilliseconds: 1000) }
        var results: [Int: Result<SelectionText, SelectionReadError>] = [:]
        var order: [Int] = []
        for index in 0..<8 {
            harness.service.readMarkedText(.clipboard, timeoutMilliseconds: 10_000, maxBytes: 100) {
                results[index] = $0
                order.append(index)
            }
        }
        #expect(harness.pump(milliseconds: 15_000) { results.count == 8 })
        #expect(order == Array(0..<8))
        for (_, result) in results {
            #expect(try result.get().markedSecret)
            #expect(try result.get().bytes == Array("pw".utf8))
        }
    }
}

extension Harness {
    /// Reads `selection` with its owner's mark, driving the service until the completion runs.
    func readMarked(_ selection: SelectionName = .clipboard, timeoutMilliseconds: Int = 10_000)
        -> Result<SelectionText, SelectionReadError>?
    {
        var result: Result<SelectionText, SelectionReadError>?
        service.readMarkedText(selection, timeoutMilliseconds: timeoutMilliseconds, maxBytes: 1 << 20) {
            result = $0
        }
        pump(milliseconds: timeoutMilliseconds + 5000) { result != nil }
        return result
    }
}
