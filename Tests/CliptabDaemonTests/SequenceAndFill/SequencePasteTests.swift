// SPDX-License-Identifier: MIT
import DBus
import DaemonTestSupport
import Foundation
import Posix
import TestSupport
import Testing

/// `cliptab copy --sequence` on Xvfb: three Tk entries, the person's own Ctrl+V (xdotool) in
/// each, while a clipboard manager saves every new owner at once.
@Suite(.serialized)
struct SequencePasteTests {
    static let rows = ["Ann Smith", "1 Main St", "Springfield"]
    static let image: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48]

    /// A desk with table "t" (section "Address": `rows`) and secret table "s" ("pw1", "pw2").
    static func desk() throws -> PasteDesk {
        let desk = try PasteDesk()
        try desk.call(
            "ImportTable", [s("t"), s("lines"), s("## Address\n" + rows.joined(separator: "\n")), b(false)])
        try desk.call("ImportTable", [s("s"), s("lines"), s("pw1\npw2"), b(false)])
        try desk.call("SetSecret", [s("s"), b(true)])
        return desk
    }

    /// `cliptab ARGS…`; its output, or the failure.
    static func cliptab(_ desk: PasteDesk, _ arguments: [String]) throws -> String {
        let result = try desk.cliptab(arguments)
        guard result.termination == .exited(0) else {
            throw FixtureError("cliptab \(arguments): \(result.termination) \(result.errorText)")
        }
        return result.outputText
    }

    /// The person pastes into `field`: not faster than 150 ms after the row was offered
    /// (`offered`: when the watcher saved it), as a person is; a read sooner is a
    /// clipboard manager's, by design.
    static func pasteByHand(_ desk: PasteDesk, into field: TextFieldProgram, offered: UInt64) throws {
        _ = eventually(within: 1_000, every: 10) { MonotonicClock.milliseconds() >= offered + 150 }
        try desk.focus(field.window)
        let key = try desk.run("xdotool", ["key", "--clearmodifiers", "ctrl+v"])
        guard key.termination == .exited(0) else { throw FixtureError("xdotool key: \(key.errorText)") }
    }

    /// Each entry gets its row while a manager (owner of CLIPBOARD_MANAGER) saves every new
    /// owner, 200 ms after it came (later than the 100 ms of reads that never count: known by
    /// CLIPBOARD_MANAGER); `cliptab sequence` follows; after the last the image is back.
    @Test func threeEntriesWithASavingManagerThenTheImageBack() throws {
        let desk = try Self.desk()
        let manager = try SelectionWatcher(.manager, on: desk, delay: 200)
        try desk.ownClipboardElsewhere(Self.image, target: "image/png")
        // xclip serves its bytes for any target, UTF8_STRING too: the manager saves them.
        _ = try manager.nextSaved()
        #expect(try Self.cliptab(desk, ["copy", "t", "@Address:0", "--sequence"]) == "1 of 3: t @Address\n")
        var fields: [TextFieldProgram] = []
        for index in Self.rows.indices {
            try manager.waitForSaved(Self.rows[index])
            // Each entry opens (and takes the focus) when its turn comes, as a form's next field.
            let field = try TextFieldProgram.tk(on: desk)
            fields.append(field)
            if index == 1 { #expect(try Self.cliptab(desk, ["sequence"]) == "2 of 3: t @Address\n") }
            try Self.pasteByHand(desk, into: field, offered: MonotonicClock.milliseconds())
            #expect(
                field.waitForText(Self.rows[index]), "entry \(index) holds \(field.text.debugDescription)")
        }
        // Put back as it was read, image/png only: no text for the manager.
        #expect(try manager.nextSaved() == nil, "the image did not come back after the last row")
        try waitFor("the sequence's end") {
            try Self.cliptab(desk, ["sequence"]) == "no sequence is running\n"
        }
        let back = try desk.run("xclip", ["-selection", "clipboard", "-t", "image/png", "-o"])
        #expect(back.standardOutput == Self.image)
        #expect(fields.map(\.text) == Self.rows, "a row went to two entries")
    }

    /// With `xclip -o` run for every new owner (a watch loop, no CLIPBOARD_MANAGER), a secret
    /// sequence carries the hint, `--stop` puts the text from before back, and at the end of
    /// the last row the secret leaves the clipboard.
    @Test func xclipWatchLoopSecretStopAndEnd() throws {
        let desk = try Self.desk()
        let watcher = try SelectionWatcher(.xclip, on: desk)
        try desk.ownClipboardElsewhere(Array("before".utf8))
        try watcher.waitForSaved("before")
        let field = try TextFieldProgram.tk(on: desk)
        #expect(try Self.cliptab(desk, ["copy", "s", "0", "--sequence"]) == "1 of 2: s 0\n")
        try watcher.waitForSaved("pw1")
        #expect(try desk.clipboardHint() == "secret")
        try Self.pasteByHand(desk, into: field, offered: MonotonicClock.milliseconds())
        #expect(field.waitForText("pw1"))
        try watcher.waitForSaved("pw2")
        #expect(try Self.cliptab(desk, ["sequence", "--stop"]) == "")
        try watcher.waitForSaved("before")
        #expect(try desk.clipboard() == "before" && desk.clipboardHint() == nil)

        // To the end of a secret sequence with nothing before it: the clipboard is left empty.
        try desk.call("ClearClipboard")
        #expect(try Self.cliptab(desk, ["copy", "s", "1", "--sequence", "-q"]) == "")
        try watcher.waitForSaved("pw2")
        try Self.pasteByHand(desk, into: field, offered: MonotonicClock.milliseconds())
        #expect(field.waitForText("pw1pw2"))
        try waitFor("the sequence's end") {
            try Self.cliptab(desk, ["sequence"]) == "no sequence is running\n"
        }
        #expect(try desk.clipboard() == nil, "the secret stayed on the clipboard")
    }

    /// Another program's copy ends the sequence, and nothing is put back over it;
    /// `SequenceChanged` follows it on the bus.
    @Test func anotherCopyEndsItWithoutRestore() throws {
        let desk = try Self.desk()
        let listener = try desk.daemon.connect()
        try listener.addMatch("type='signal',interface='io.github.cliptab.Cliptab1',member='SequenceChanged'")
        try desk.ownClipboardElsewhere(Array("before".utf8))
        #expect(
            try Self.cliptab(desk, ["copy", "t", "0:1", "--sequence", "--count", "1"])
                == "1 of 1: t @Address\n")
        try desk.ownClipboardElsewhere(Array("copied meanwhile".utf8))
        try waitFor("the sequence's end") {
            try Self.cliptab(desk, ["sequence"]) == "no sequence is running\n"
        }
        #expect(try desk.clipboard() == "copied meanwhile")
        #expect(
            try Self.sequenceSignals(listener, 2) == [
                [b(true), s("t"), i(0), s("Address"), u(1), u(1)],
                [b(false), s(""), i(0), s(""), u(0), u(0)],
            ])
    }

    /// The values of the next `count` `SequenceChanged` signals `listener` gets.
    static func sequenceSignals(_ listener: BusConnection, _ count: Int) throws -> [[BusValue]] {
        var values: [[BusValue]] = []
        let deadline = MonotonicClock.milliseconds() + 10_000
        while values.count < count, MonotonicClock.milliseconds() < deadline {
            if let message = listener.readMessage(timeoutMilliseconds: 200),
                message.member == "SequenceChanged"
            {
                values.append(try message.readValues())
            }
        }
        return values
    }
}
