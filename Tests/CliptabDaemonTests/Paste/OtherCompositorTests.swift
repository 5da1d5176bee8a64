// SPDX-License-Identifier: MIT
import CliptabContract
import DBus
import DaemonTestSupport
import Foundation
import Posix
import TestSupport
import Testing

/// cliptabd on the two other compositor families a user runs: GNOME's mutter (no
/// data-control: X11 through XWayland is chosen, and says why) and Plasma's KWin (a second
/// implementation of `zwlr_data_control_manager_v1`), each headless with real clients.
@Suite(.serialized)
struct OtherCompositorTests {
    /// The `ClipboardBackend` property of `daemon`.
    static func backend(_ daemon: DaemonProcess) throws -> String {
        let message = try BusMessage.methodCall(
            destination: CliptabBus.name, path: CliptabBus.path, interface: "org.freedesktop.DBus.Properties",
            member: "Get")
        try message.append([s(CliptabBus.interface), s("ClipboardBackend")])
        let reply = try daemon.client.call(message, timeoutMilliseconds: 10_000).readValues()
        guard case .variant(.string(let summary))? = reply.first else {
            throw FixtureError("ClipboardBackend answered \(reply)")
        }
        return summary
    }

    /// On headless mutter the backend is X11 through mutter's XWayland, named with the
    /// reason; copies and reads work there (GNOME bridges every owner), and xclip, an X11
    /// program, reads the copy.
    @Test func mutterGetsX11ThroughXWayland() throws {
        let mutter = try HeadlessCompositor(.mutter)
        let x11 = try mutter.xwaylandEnvironment()
        let display = x11["DISPLAY"] ?? ""
        var environment = x11
        environment["WAYLAND_DISPLAY"] = mutter.socketPath
        environment["XDG_CURRENT_DESKTOP"] = "GNOME"
        let daemon = try DaemonProcess(environment: environment, homePrefix: "cliptab-mutter")
        defer { daemon.stop() }
        let backend = try Self.backend(daemon)
        #expect(
            backend.hasPrefix(
                "x11 through XWayland (\(display)): the compositor at \(mutter.socketPath) offers no data-control"
            ),
            "\(backend)")
        #expect(daemon.log.contains("clipboard: x11 through XWayland"), "\(daemon.log)")

        try daemon.call("CreateTable", [s("t")])
        try daemon.call("InsertRow", [s("t"), i(0), i(0), s("über GNOME ✓")])
        _ = try daemon.call("Copy", [s("t"), i(0), i(0)])
        #expect(try daemon.call("GetClipboard") == [s("über GNOME ✓")])
        let read = try mutter.run("xclip", ["-selection", "clipboard", "-o"], environment: x11)
        #expect(read.termination == .exited(0) && read.outputText == "über GNOME ✓", "\(read.errorText)")
    }

    /// On KWin the Wayland backend is chosen; a copy reaches wl-paste exactly, a wl-copy
    /// reaches Paste, and a secret copy carries the password hint.
    @Test func kwinGetsDataControl() throws {
        let kwin = try HeadlessCompositor(.kwin)
        let daemon = try DaemonProcess(
            environment: ["WAYLAND_DISPLAY": kwin.socketPath], homePrefix: "cliptab-kwin")
        defer { daemon.stop() }
        #expect(try Self.backend(daemon) == "wayland (zwlr_data_control_manager_v1 on \(kwin.socketPath))")

        let text = "first line\nzweite Zeile: grüße ✓\n\tlast"
        try daemon.call("CreateTable", [s("t")])
        try daemon.call("InsertRow", [s("t"), i(0), i(0), s(text)])
        _ = try daemon.call("Copy", [s("t"), i(0), i(0)])
        let pasted = try kwin.run("wl-paste", ["--no-newline"])
        #expect(pasted.termination == .exited(0) && pasted.outputText == text, "\(pasted.errorText)")

        // wl-copy's serving child keeps the streams it was given: /dev/null, so that
        // waiting for the parent is enough.
        let copier = try ChildProcess.spawn(
            "/usr/bin/wl-copy", ["from kwin"], environment: kwin.environment(), stdout: .null, stderr: .null)
        try #require(copier.waitForExit(timeoutMilliseconds: 10_000) == .exited(0), "wl-copy did not copy")
        try waitFor("wl-copy's text to reach Paste") {
            (try? daemon.call("GetClipboard")) == [s("from kwin")]
        }
        #expect(try daemon.call("Paste", [s("t"), i(0), i(-1)]) == [s("from kwin")])

        try daemon.call("CreateTable", [s("pw")])
        try daemon.call("InsertRow", [s("pw"), i(0), i(0), s("hunter2")])
        try daemon.call("SetSecret", [s("pw"), .boolean(true)])
        _ = try daemon.call("Copy", [s("pw"), i(0), i(0)])
        let types = try kwin.run("wl-paste", ["--list-types"])
        #expect(types.outputText.contains("x-kde-passwordManagerHint"), "\(types.outputText)")
    }
}
