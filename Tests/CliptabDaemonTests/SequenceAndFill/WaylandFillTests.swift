// SPDX-License-Identifier: MIT
import DBus
import DaemonTestSupport
import Foundation
import Posix
import TestSupport
import Testing

/// `FillToFocus` on a headless sway: the rows through cliptabd's virtual keyboard (a full
/// keymap) into a GTK 3 form on Wayland, Tab, Return or nothing between them, while a clipboard
/// manager reads every selection; the clipboard held before is back after.
@Suite(.serialized)
struct WaylandFillTests {
    /// The form on Wayland (`GDK_BACKEND=wayland`, app id `fill-target`), focused; returns
    /// the file its entries are written to.
    static func form(on desk: WaylandPasteTests.Desk, name: String) throws -> (ChildProcess, String) {
        let out = desk.file(name)
        let form = try desk.start(
            WaylandPasteTests.Desk.systemPython,
            ["-c", HelperPrograms.source("gtk_form.py"), out, "-1", "none", "fill-target"],
            environment: ["GDK_BACKEND": "wayland"], readyFile: out, appID: "fill-target")
        return (form, out)
    }

    /// Waits until the form holds `entries` with `activated` activations; the form as it is.
    static func waitForForm(_ path: String, _ entries: [String], activated: Int) -> (
        entries: [String], activated: Int
    )? {
        _ = try? waitFor("the form's entries", milliseconds: 20_000) {
            GtkForm.read(path).map { $0.entries == entries && $0.activated == activated } ?? false
        }
        return GtkForm.read(path)
    }

    @Test func fillsAGtkFormOnWayland() throws {
        let desk = try WaylandPasteTests.Desk(xtest: false)
        for text in ["name ✓", "street 1", "town"] { _ = try desk.add(text) }
        let seen = desk.file("manager.log")
        let manager = try desk.sway.spawn(
            "wl-paste", ["--watch", "sh", "-c", "cat >/dev/null; echo x >> \(seen)"], stdout: .null,
            stderr: .null)
        defer { manager.terminate(graceMilliseconds: 1000) }
        try desk.sway.copy(Array("someone else's".utf8))

        let (tabbed, out) = try Self.form(on: desk, name: "form.json")
        defer { tabbed.terminate(graceMilliseconds: 1000) }
        let reply = try desk.daemon.call(
            "FillToFocus",
            [
                s("t"), i(0), i(0),
                fillOptions(["timeout_ms": .uint64(UInt64(DaemonProcess.pasteDeadlineMilliseconds))]),
            ], timeout: 60_000)
        #expect(reply == [.uint32(3), s("")], "\(desk.daemon.log)")
        let shown = Self.waitForForm(out, ["name ✓", "street 1", "town"], activated: 0)
        #expect(shown?.entries == ["name ✓", "street 1", "town"], "\(desk.daemon.log)")
        #expect(try desk.clipboard() == "someone else's")
        #expect(desk.daemon.log.contains("through the virtual keyboard to the window [\"fill-target\"]"))
        tabbed.terminate(graceMilliseconds: 1000)

        let (entered, enteredOut) = try Self.form(on: desk, name: "entered.json")
        defer { entered.terminate(graceMilliseconds: 1000) }
        let enter = try desk.daemon.call(
            "FillToFocus",
            [
                s("t"), i(0), i(1),
                fillOptions([
                    "then": s("enter"),
                    "timeout_ms": .uint64(UInt64(DaemonProcess.pasteDeadlineMilliseconds)),
                ]),
            ],
            timeout: 60_000)
        #expect(enter == [.uint32(2), s("")], "\(desk.daemon.log)")
        let afterEnter = Self.waitForForm(enteredOut, ["street 1", "town", ""], activated: 1)
        #expect(afterEnter?.entries == ["street 1", "town", ""])
        #expect(afterEnter?.activated == 1)
        #expect(try desk.clipboard() == "someone else's")
        entered.terminate(graceMilliseconds: 1000)

        // Nothing between the rows: both follow one another in the first entry.
        let (joined, joinedOut) = try Self.form(on: desk, name: "joined.json")
        defer { joined.terminate(graceMilliseconds: 1000) }
        let none = try desk.daemon.call(
            "FillToFocus",
            [
                s("t"), i(0), i(0),
                fillOptions([
                    "then": s("none"), "count": .uint64(2),
                    "timeout_ms": .uint64(UInt64(DaemonProcess.pasteDeadlineMilliseconds)),
                ]),
            ],
            timeout: 60_000)
        #expect(none == [.uint32(2), s("")], "\(desk.daemon.log)")
        let afterNone = Self.waitForForm(joinedOut, ["name ✓street 1", "", ""], activated: 0)
        #expect(afterNone?.entries == ["name ✓street 1", "", ""])
        #expect(try desk.clipboard() == "someone else's")
    }
}
