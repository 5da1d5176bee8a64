// SPDX-License-Identifier: MIT
import CliptabClient
import DBus
import DaemonTestSupport
import Foundation
import Posix
import TestSupport
import Testing

/// The keys of `[keys]` grabbed by cliptabd on Xvfb: pressed with `xdotool key`, a paste
/// landing in a Tk entry with no modifier held, a key another client holds reported, and a
/// reload binding the keys anew.
@Suite(.serialized)
struct KeyBindingX11Tests {
    static let cell = "from a key ✓"
    static let config = """
        [paste_to_focus]
        timeout_ms = \(DaemonProcess.pasteDeadlineMilliseconds)
        [keys]
        Super+Alt+I = paste t 0:0
        Super+Alt+1 = copy t 0:0

        """

    /// A desk with table "t" holding `cell` and the keys of `config`.
    static func desk(config: String = config) throws -> PasteDesk {
        let desk = try PasteDesk(config: config)
        try desk.call("CreateTable", [s("t")])
        try desk.call("InsertRow", [s("t"), i(0), i(0), s(cell)])
        return desk
    }

    /// The daemon's `KeyBindings`, through the typed client.
    static func bindings(_ desk: PasteDesk) throws -> [KeyBindingStatus] {
        let client = CliptabClient(
            connection: try desk.daemon.connect(), timeoutMilliseconds: 10_000, sharedDeadline: false)
        return try client.keyBindings()
    }

    /// Super+Alt+I pastes into the focused GTK entry once the keys are up; Super+Alt+1
    /// copies in the daemon.
    @Test func pasteAndCopyFromGrabbedKeys() throws {
        let desk = try Self.desk()
        #expect(try Self.bindings(desk).map(\.state) == ["grabbed", "grabbed"], "\(desk.log)")
        try desk.ownClipboardElsewhere(Array("before".utf8))
        let field = try TextFieldProgram.gtk(on: desk)
        let press = try desk.run("xdotool", ["key", "super+alt+i"])
        #expect(press.termination == .exited(0), "\(press.errorText)")
        #expect(field.waitForText(Self.cell), "the entry holds \(field.text.debugDescription): \(desk.log)")
        try waitFor("the clipboard put back") { try desk.clipboard() == "before" }

        _ = try desk.run("xdotool", ["key", "super+alt+1"])
        try waitFor("the copy of Super+Alt+1") { try desk.clipboard() == Self.cell }
    }

    /// Under a window manager (openbox), Super+Alt+I pastes into a Tk entry once the keys
    /// are released, and its Ctrl+V sees neither Alt (Mod1) nor Super (Mod4).
    @Test func pasteIntoTkWithNoModifierHeld() throws {
        let desk = try Self.desk()
        try desk.display.startWindowManager(.openbox)
        let field = try TextFieldProgram.tk(
            on: desk,
            onPaste: """
                held = 'held' if event.state & (0x08 | 0x40) else 'clean'
                e.insert('end', r.clipboard_get() + '|' + held)
                """)
        // The window manager's focus, on the client window (`wm_frame` is openbox's frame).
        let activate = try desk.run(
            "xdotool",
            ["search", "--sync", "--onlyvisible", "--class", "PasteTarget", "windowactivate", "--sync"])
        #expect(activate.termination == .exited(0), "\(activate.errorText)")
        try desk.ownClipboardElsewhere(Array("before".utf8))
        // Held down, the keys paste nothing yet: Super+Alt+1, pressed meanwhile, copies, and
        // by then the daemon has handled the press of Super+Alt+I before it.
        #expect(try desk.run("xdotool", ["keydown", "super+alt+i"]).termination == .exited(0))
        _ = try desk.run("xdotool", ["key", "super+alt+1"])
        try waitFor("the copy of Super+Alt+1") { try desk.clipboard() == Self.cell }
        #expect(field.text == "", "the paste did not wait for the keys' release")
        let release = try desk.run("xdotool", ["keyup", "i", "alt", "super"])
        #expect(release.termination == .exited(0), "\(release.errorText)")
        #expect(
            field.waitForText(Self.cell + "|clean"),
            "the entry holds \(field.text.debugDescription): \(desk.log)")
    }

    /// A `fill` key fills the GTK form of `FillTests` once its keys are up; a `sequence` key,
    /// pressed while the fill's keys are still down, starts a sequence that `cliptab sequence`
    /// reports, and nothing is typed before the release.
    @Test func fillAndSequenceFromGrabbedKeys() throws {
        let desk = try FillTests.desk(
            config:
                "[paste_to_focus]\ntimeout_ms = \(DaemonProcess.pasteDeadlineMilliseconds)\n[keys]\nSuper+Alt+F = fill f @form:0\n"
                + "Super+Alt+S = sequence f @form:1 count=2\n")
        #expect(try Self.bindings(desk).map(\.state) == ["grabbed", "grabbed"], "\(desk.log)")
        try desk.ownClipboardElsewhere(Array("before".utf8))
        let form = try FillTests.form(on: desk)
        #expect(try desk.run("xdotool", ["keydown", "super+alt+f"]).termination == .exited(0))
        _ = try desk.run("xdotool", ["key", "super+alt+s"])
        let cliptab = BuiltProducts.path(of: "cliptab")
        try waitFor("the sequence of Super+Alt+S") {
            try desk.run(cliptab, ["sequence"]).outputText == "1 of 2: f @form\n"
        }
        #expect(
            GtkForm.read(form).map { $0.entries.allSatisfy(\.isEmpty) } ?? true,
            "the fill did not wait for the keys' release")
        #expect(try desk.run(cliptab, ["sequence", "--stop"]).termination == .exited(0))
        try waitFor("the clipboard put back by the stop") { try desk.clipboard() == "before" }

        let release = try desk.run("xdotool", ["keyup", "f", "alt", "super"])
        #expect(release.termination == .exited(0), "\(release.errorText)")
        let shown = FillTests.waitForForm(form, ["first", "second ü", "third"])
        #expect(shown?.entries == ["first", "second ü", "third"], "\(desk.log)")
        try waitFor("the clipboard put back by the fill") { try desk.clipboard() == "before" }
    }

    /// A key another client grabbed first is reported not bound, naming what to do.
    ///
    /// The other keys are grabbed all the same. A reload binds the file's new keys and gives the
    /// old ones back (another client can then grab them).
    @Test func heldKeyReportedAndReloadRebinds() throws {
        let desk = try Self.desk(config: "[keys]\nSuper+Alt+G = copy t 0:0\nSuper+Alt+1 = copy t 0:0\n")
        #expect(try Self.bindings(desk).map(\.state) == ["grabbed", "grabbed"])
        // Super+Alt+1 is cliptabd's: another client is refused it.
        #expect(try KeyGrabScript.grab("1", on: desk) == nil)

        try desk.daemon.rewriteConfig("[keys]\nSuper+Alt+H = copy t 0:0\n")
        #expect(try desk.daemon.reload() == [])
        #expect(try Self.bindings(desk).map(\.keys) == ["Super+Alt+H"])
        let freed = try KeyGrabScript.grab("1", on: desk)
        #expect(freed != nil, "Super+Alt+1 was not given back at the reload")
        freed?.terminate(graceMilliseconds: 500)

        // Another client holds Super+Alt+J before cliptabd binds it.
        let holder = try #require(try KeyGrabScript.grab("j", on: desk))
        defer { holder.terminate(graceMilliseconds: 500) }
        try desk.daemon.rewriteConfig("[keys]\nSuper+Alt+J = copy t 0:0\nSuper+Alt+K = menu\n")
        #expect(try desk.daemon.reload() == [])
        let states = try Self.bindings(desk)
        #expect(states.map(\.state) == ["not-bound", "grabbed"])
        #expect(states.first?.detail.contains("another program") == true, "\(states)")
        #expect(desk.log.contains("Super+Alt+J"), "\(desk.log)")

        // `cliptab keys` says the same.
        let listing = try desk.run(BuiltProducts.path(of: "cliptab"), ["keys"])
        #expect(
            listing.outputText.contains("Super+Alt+J\tcopy t 0:0\tnot bound: another program"),
            "\(listing.outputText)")
        #expect(listing.outputText.contains("Super+Alt+K\tmenu\tgrabbed"))
    }

    /// A bad line of `[keys]` is a problem of the file naming its line: `--check-config`
    /// fails with it, and `Reload` returns it and changes nothing.
    @Test func badLineNamedByCheckConfigAndReload() throws {
        let desk = try Self.desk(config: "[keys]\nSuper+Alt+G = copy t 0:0\n")
        try desk.daemon.rewriteConfig(
            "[keys]\nSuper+Alt+G = copy t 0:0\nSuper+Hyper+X = copy t 0:0\nAlt+F = fling t\n")
        let problems = try desk.daemon.reload()
        #expect(problems.count == 2, "\(problems)")
        #expect(
            problems.first?.contains("cliptab.conf:3: Super+Hyper+X: unknown modifier") == true, "\(problems)"
        )
        #expect(
            problems.last?.contains("cliptab.conf:4: Alt+F: expected copy TABLE ROW") == true, "\(problems)")
        #expect(try Self.bindings(desk).map(\.keys) == ["Super+Alt+G"])

        let check = try ChildProcess.run(
            BuiltProducts.path(of: "cliptabd"), ["--check-config", "--config", desk.daemon.configPath],
            timeoutMilliseconds: 20_000)
        #expect(check.termination == .exited(78))
        #expect(check.errorText.contains("cliptab.conf:3: Super+Hyper+X"), "\(check.errorText)")
    }

    /// `cliptab keys --print i3` writes i3's lines: a copy at the press, a paste at the
    /// release.
    @Test func printLinesForI3() throws {
        let desk = try Self.desk(
            config: "[keys]\nSuper+Alt+I = paste t sig\nCtrl+Shift+F5 = copy t 2:3\nSuper+M = menu t\n")
        let result = try desk.run(BuiltProducts.path(of: "cliptab"), ["keys", "--print", "i3"])
        #expect(result.termination == .exited(0), "\(result.errorText)")
        #expect(
            result.outputText == """
                bindsym --release Mod4+Mod1+i exec cliptab copy --paste t sig
                bindsym Control+Shift+F5 exec cliptab copy -q t 2:3
                bindsym Mod4+m exec cliptab menu -- t

                """)
    }
}

/// A Python client (libX11 through ctypes) that grabs Super+Alt+KEY on the root window and
/// holds it until stopped.
enum KeyGrabScript {
    static let script =
        xlibPythonPrelude + HelperPrograms.source("key_grab.py")

    /// The grabbing client, or nil when the server refused it the key (another holds it).
    static func grab(_ key: String, on desk: PasteDesk) throws -> ChildProcess? {
        guard let python = python(running: "import ctypes") else { throw FixtureError("python3 is missing") }
        let process = try ChildProcess.spawn(
            python, ["-c", script, key], environment: desk.environment, stdin: .pipe, stdout: .pipe,
            stderr: .null)
        let line = process.readLine(timeoutMilliseconds: 20_000)
        guard line == "grabbed" else {
            process.terminate(graceMilliseconds: 500)
            if line == "refused" { return nil }
            throw FixtureError("the grabbing client said \(line.debugDescription)")
        }
        return process
    }
}
