// SPDX-License-Identifier: MIT
import DBus
import DaemonTestSupport
import Foundation
import Posix
import TestSupport
import Testing
import WaylandDesktop

/// `cliptab copy --sequence` on a headless sway: GTK entries on Wayland, each pasted with
/// the person's Ctrl+V on a virtual keyboard of the whole US layout, while `wl-paste --watch`
/// saves every selection at once, as a clipboard manager does.
@Suite(.serialized)
struct WaylandSequenceTests {
    static let rows = ["Ann Smith", "1 Main St", "Springfield"]

    @Test func gtkEntriesWithWlPasteWatch() throws {
        let desk = try WaylandPasteTests.Desk(xtest: false)
        try desk.daemon.call(
            "ImportTable",
            [s("w"), s("lines"), s("## Address\n" + Self.rows.joined(separator: "\n")), b(false)])
        let saved = desk.file("manager.log")
        let manager = try desk.sway.spawn(
            "wl-paste", ["--watch", "sh", "-c", "cat >> \(saved); echo >> \(saved)"], stdout: .null,
            stderr: .null)
        defer { manager.terminate(graceMilliseconds: 1000) }
        try desk.sway.copy(Array("before".utf8))
        try waitFor("the manager to save the text before") { desk.contents(saved).contains("before\n") }

        // The person's keyboard: a virtual one of the whole US layout.
        let seat = try WaylandSelectionService.connect(display: desk.sway.socketPath)
        let keyboard = try seat.makeVirtualKeyboard(keymap: try WaylandKeymap(KeymapNames(layout: "us")))

        let cliptab = { (arguments: [String]) throws -> String in
            let result = try ChildProcess.run(
                BuiltProducts.path(of: "cliptab"), arguments, environment: desk.daemon.environment,
                timeoutMilliseconds: 20_000)
            guard result.termination == .exited(0) else { throw FixtureError("cliptab: \(result.errorText)") }
            return result.outputText
        }
        #expect(try cliptab(["copy", "w", "@Address:0", "--sequence"]) == "1 of 3: w @Address\n")
        var entry: ChildProcess?
        for (index, row) in Self.rows.enumerated() {
            try waitFor("the manager to save row \(index)") { desk.contents(saved).contains(row + "\n") }
            let offered = MonotonicClock.milliseconds()
            // One entry at a time, so the focus is the new one's (the form's next field).
            entry?.terminate(graceMilliseconds: 1000)
            let out = desk.file("entry\(index).txt")
            entry = try desk.gtkEntry(out)
            // As a person: not within 100 ms of the row's offer, which is a manager's read.
            _ = eventually(within: 1_000, every: 10) { MonotonicClock.milliseconds() >= offered + 150 }
            _ = try keyboard.type(0x76, modifierKeysyms: [0xffe3])
            seat.processEvents(now: MonotonicClock.milliseconds())
            #expect(
                (try? waitFor("row \(index) in its entry") { desk.contents(out) == row }) != nil,
                "entry \(index) holds \(desk.contents(out).debugDescription)\n\(desk.daemon.log)")
        }
        entry?.terminate(graceMilliseconds: 1000)
        try waitFor("the sequence's end") { try cliptab(["sequence"]) == "no sequence is running\n" }
        #expect(try desk.clipboard() == "before")
    }
}
