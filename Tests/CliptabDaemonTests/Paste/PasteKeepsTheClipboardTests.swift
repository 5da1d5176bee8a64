// SPDX-License-Identifier: MIT
import CliptabContract
import DBus
import DaemonTestSupport
import Foundation
import Glibc
import Posix
import TestSupport
import Testing

/// The user's clipboard is theirs: on Xvfb, with real programs on the other side, a paste
/// into the focused window leaves PRIMARY alone, never types for a caller that gave up,
/// refuses a flood at once, and what it put back is handed to a clipboard manager at exit.
@Suite(.serialized)
struct PasteKeepsTheClipboardTests {
    /// The PRIMARY text as xsel reads it, or nil when it finds none.
    private func primary(_ desk: PasteDesk) throws -> String? {
        let result = try desk.run("xsel", ["--primary", "--output"])
        return result.termination == .exited(0) && !result.standardOutput.isEmpty ? result.outputText : nil
    }

    /// Makes xsel the PRIMARY owner of `text`; returns once it serves it.
    private func selectElsewhere(_ desk: PasteDesk, _ text: String) throws {
        _ = try desk.run("xsel", ["--primary", "--input"], input: Array(text.utf8))
        try waitFor("xsel to own PRIMARY") { try primary(desk) == text }
    }

    /// With copies also taking PRIMARY, a paste takes CLIPBOARD only: the selection the
    /// person made stays, and a password manager's text put back never reaches PRIMARY.
    @Test func pasteLeavesPrimaryAlone() throws {
        let desk = try PasteToFocusTests.desk(
            config:
                "[clipboard]\nselections = clipboard primary\n[paste_to_focus]\ntimeout_ms = \(DaemonProcess.pasteDeadlineMilliseconds)\n"
        )
        let field = try TextFieldProgram.tk(on: desk)
        try selectElsewhere(desk, "selected by hand")
        try desk.ownClipboardElsewhere(Array("before".utf8))
        #expect(try desk.paste("t"))
        #expect(field.waitForText(PasteToFocusTests.cell))
        #expect(try primary(desk) == "selected by hand", "the paste took PRIMARY")
        #expect(try desk.clipboard() == "before")

        try desk.ownClipboardMarked("correct horse", hint: "secret")
        #expect(try desk.paste("t"))
        #expect(field.waitForText(PasteToFocusTests.cell + PasteToFocusTests.cell))
        #expect(try desk.clipboard() == "correct horse" && desk.clipboardHint() == "secret")
        #expect(try primary(desk) == "selected by hand", "the password manager's text reached PRIMARY")
        // A plain copy still takes both, as configured.
        _ = try desk.call("Copy", [s("t"), i(0), i(0)])
        #expect(try primary(desk) == PasteToFocusTests.cell)
    }

    /// A paste that waits behind another and whose caller gives up (its cliptab exits on
    /// its --timeout) never types; the one under way and a later one each type once.
    @Test func pasteOfACallerThatGaveUpNeverTypes() throws {
        let desk = try PasteToFocusTests.desk(config: "[paste_to_focus]\ntimeout_ms = 2500\n")
        // Counts the chords that reach it, fetching nothing (so each paste waits its timeout).
        let field = try TextFieldProgram.tk(on: desk, onPaste: "e.insert('end', 'K')")
        try desk.ownClipboardElsewhere(Array("before".utf8))
        let cliptab = BuiltProducts.path(of: "cliptab")
        let first = try ChildProcess.spawn(
            cliptab, ["--timeout", "60", "copy", "t", "0:0", "--paste"], environment: desk.environment,
            stdout: .null,
            stderr: .null)
        #expect(field.waitForText("K"), "the first paste did not type")
        let impatient = try desk.run(cliptab, ["--timeout", "1", "copy", "t", "0:0", "--paste"])
        #expect(impatient.termination == .exited(69), "\(impatient.errorText)")
        #expect(first.waitForExit(timeoutMilliseconds: 20_000) == .exited(1))
        // A third paste types after everything before it: had the impatient one typed, its
        // K would stand before this one's.
        let third = try desk.cliptab(["copy", "t", "0:0", "--paste"])
        #expect(third.termination == .exited(1))
        #expect(field.waitForText("KK"))
        #expect(field.text == "KK", "a paste typed for a caller that had given up: \(field.text)")
        #expect(try desk.clipboard() == "before")
    }

    /// A flood of pastes: a handful wait, the rest are refused at once with LimitExceeded.
    @Test func floodOfPastesIsRefusedAtOnce() throws {
        let desk = try PasteToFocusTests.desk(config: "[paste_to_focus]\ntimeout_ms = 400\n")
        _ = try TextFieldProgram.tk(on: desk, onPaste: "pass")
        let cliptab = BuiltProducts.path(of: "cliptab")
        // Each cliptab's error output goes to a file of its own.
        let pastes = try (0..<9).map { index in
            try ChildProcess.spawn(
                "sh",
                [
                    "-c", "exec \"$0\" copy t 0:0 --paste 2> \"$1\"", cliptab,
                    desk.data.appending("paste\(index)"),
                ],
                environment: desk.environment, stdout: .null, stderr: .null)
        }
        let errors = try pastes.indices.map { index -> String in
            _ = pastes[index].waitForExit(timeoutMilliseconds: 20_000)
            return try String(contentsOfFile: desk.data.appending("paste\(index)"), encoding: .utf8)
        }
        let refused = errors.filter { $0.contains("LimitExceeded") }
        #expect(refused.count == 4, "\(errors)")
        #expect(refused.allSatisfy { $0.contains("pastes already wait") })
        #expect(errors.filter { $0.contains("did not fetch the text within 400 ms") }.count == 5, "\(errors)")
    }

    /// ClipboardChanged during a paste of another row over a copy of ours: one signal at
    /// its end, naming the row put back, and never "not owned" while cliptabd owns it.
    @Test func signalsDuringAPaste() throws {
        let desk = try PasteToFocusTests.desk()
        let field = try TextFieldProgram.tk(on: desk)
        try desk.call("InsertRow", [s("t"), i(0), i(1), s("copied")])
        let listener = try BusConnection.connect(address: desk.daemon.bus.address)
        try listener.addMatch(
            "type='signal',interface='io.github.cliptab.Cliptab1',member='ClipboardChanged'")
        _ = try desk.call("Copy", [s("t"), i(0), i(1)])
        #expect(try desk.paste("t"))
        #expect(field.waitForText(PasteToFocusTests.cell))
        try desk.call("ClearClipboard")
        var signals: [[BusValue]] = []
        let deadline = MonotonicClock.milliseconds() + 10_000
        while signals.count < 3 && MonotonicClock.milliseconds() < deadline {
            if let message = listener.readMessage(timeoutMilliseconds: 200),
                message.member == "ClipboardChanged"
            {
                signals.append(try message.readValues())
            }
        }
        #expect(signals.map { $0.first } == [.boolean(true), .boolean(true), .boolean(false)], "\(signals)")
        #expect(
            signals.count == 3 && signals[0] == signals[1], "the paste's end did not name the row put back")
    }

    /// Under XWayland with a Wayland window focused no X11 window has the focus: the paste
    /// says so and leaves the text on the clipboard, to paste by hand.
    @Test func waylandWindowIsNamed() throws {
        let desk = try PasteDesk(config: nil, environment: ["WAYLAND_DISPLAY": "wayland-7"])
        try desk.call("CreateTable", [s("t")])
        try desk.call("InsertRow", [s("t"), i(0), i(0), s("snippet")])
        try desk.ownClipboardElsewhere(Array("kept".utf8))
        let reply = try desk.call("PasteToFocusWithReason", [s("t"), i(0), i(0), .uint32(0)])
        #expect(reply.first == .boolean(false))
        guard case .string(let reason) = reply.last else { throw FixtureError("no reason in \(reply)") }
        #expect(
            reason.contains("belongs to Wayland (wayland-7)") && reason.contains("X11 cannot type into it"),
            "\(reason)")
        #expect(try desk.clipboard() == "snippet")
    }

    /// `cliptab pick` pastes into the window focused before its launcher ran, though the
    /// launcher left the focus to PointerRoot with the pointer over another window; when that
    /// window is gone by then, it says so and leaves the text on the clipboard.
    @Test func pickPastesIntoTheWindowFocusedBefore() throws {
        let desk = try PasteToFocusTests.desk()
        let decoy = try TextFieldProgram.gtk(on: desk)
        _ = try desk.run("xdotool", ["windowmove", decoy.window, "400", "300"])
        let target = try TextFieldProgram.gtk(on: desk)
        // A launcher as rofi behaves: the focus ends at PointerRoot, the pointer elsewhere.
        let launcher = desk.data.appending("launcher")
        let pointerRoot =
            "import ctypes; x = ctypes.CDLL('libX11.so.6'); x.XOpenDisplay.restype = ctypes.c_void_p; "
            + "d = ctypes.c_void_p(x.XOpenDisplay(None)); "
            + "x.XSetInputFocus(d, ctypes.c_ulong(1), 1, ctypes.c_ulong(0)); x.XSync(d, 0)"
        let script =
            "#!/bin/sh\ncat > /dev/null\npython3 -c \"\(pointerRoot)\"\nxdotool mousemove 410 310\n"
            + "[ -n \"$1\" ] && xdotool windowkill \"$1\"\nprintf '1\\tchosen\\n'\n"
        try script.write(toFile: launcher, atomically: true, encoding: .utf8)
        chmod(launcher, 0o755)
        let pick = try desk.cliptab(["pick", "t", "--launcher", launcher])
        #expect(pick.termination == .exited(0), "\(pick.errorText)")
        #expect(
            target.waitForText(PasteToFocusTests.cell), "the target holds \(target.text.debugDescription)")
        #expect(decoy.text.isEmpty, "the paste went to the window under the pointer")

        let gone = try TextFieldProgram.gtk(on: desk)
        let refused = try desk.cliptab(["pick", "t", "--launcher", "\(launcher) \(gone.window)"])
        #expect(refused.termination == .exited(1))
        #expect(refused.errorText.contains("is gone or cannot take the input focus"), "\(refused.errorText)")
        #expect(try desk.clipboard() == PasteToFocusTests.cell)
    }

    /// After a paste the user's content is served by cliptabd; at exit it goes to the
    /// clipboard manager (SAVE_TARGETS) like any copy, so the clipboard is not emptied.
    @Test func contentPutBackIsHandedToTheManagerAtExit() throws {
        let desk = try PasteToFocusTests.desk()
        let manager = try ChildProcess.spawn(
            "python3", ["-c", tkClipboardManager], environment: desk.environment, stdout: .pipe, stderr: .null
        )
        defer { manager.terminate(graceMilliseconds: 1000) }
        #expect(manager.readLine(timeoutMilliseconds: 20_000) == "ready")
        let field = try TextFieldProgram.tk(on: desk)
        try desk.ownClipboardElsewhere(Array("the user's text".utf8))
        #expect(try desk.paste("t"))
        #expect(field.waitForText(PasteToFocusTests.cell))
        #expect(try desk.clipboard() == "the user's text")
        desk.daemon.stop()
        #expect(manager.readLine(timeoutMilliseconds: 10_000) == "saved", "no SAVE_TARGETS hand-over at exit")
        #expect(try desk.clipboard() == "the user's text")
    }
}
