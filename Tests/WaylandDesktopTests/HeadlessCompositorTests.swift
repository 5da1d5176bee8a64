// SPDX-License-Identifier: MIT
import Posix
import TestSupport
import Testing

/// The Wayland test bed itself: a headless sway run by an unprivileged user, with real
/// clipboard programs in its session.
@Suite(.serialized)
struct HeadlessCompositorTests {
    @Test("wl-copy then wl-paste round-trips multi-line UTF-8 through the test desktop")
    func clipboardRoundTrip() throws {
        let sway = try HeadlessCompositor(.sway())
        let text = Array("first line\nzweite Zeile: äöü ✓\n\tlast".utf8)
        try sway.copy(text)
        let pasted = try sway.paste()
        #expect(pasted.termination == .exited(0), "\(pasted.errorText)")
        #expect(pasted.standardOutput == text)
        #expect(try sway.offeredTypes().contains("text/plain;charset=utf-8"))
    }

    @Test("The primary selection is separate from the clipboard")
    func primaryRoundTrip() throws {
        let sway = try HeadlessCompositor(.sway())
        try sway.copy(Array("clipboard".utf8))
        try sway.copy(Array("primary".utf8), primary: true)
        #expect(try sway.paste(primary: true).outputText == "primary")
        #expect(try sway.paste().outputText == "clipboard")
    }

    @Test("A private bus runs as the session's user and answers")
    func privateBus() throws {
        let sway = try HeadlessCompositor(.sway())
        let bus = try sway.startBus()
        let reply = try sway.run(
            "dbus-send",
            [
                "--bus=\(bus.address)", "--print-reply", "--dest=org.freedesktop.DBus", "/",
                "org.freedesktop.DBus.GetId",
            ])
        #expect(reply.termination == .exited(0), "\(reply.errorText)")
        #expect(reply.outputText.contains("string"))
    }

    @Test("With xwayland enabled, sway gives its programs an X11 display")
    func xwaylandDisplay() throws {
        let sway = try HeadlessCompositor(.sway(xwayland: true))
        let display = try sway.xwaylandDisplay()
        #expect(display.hasPrefix(":"))
    }
}
