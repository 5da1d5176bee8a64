// SPDX-License-Identifier: MIT
import CliptabClient
import DBus
import DaemonTestSupport
import Posix
import TestSupport
import Testing
import WaylandDesktop

/// The keys of `[keys]` added to a headless sway through its IPC, pressed with a virtual
/// keyboard, and removed at a reload.
@Suite(.serialized)
struct KeyBindingSwayTests {
    static let superKey: UInt32 = 0xffeb
    static let altKey: UInt32 = 0xffe9

    /// Super+Alt+1 copies in the daemon when sway runs its binding; after a reload to other
    /// keys sway no longer has cliptabd's bindings of the old ones, and after the exit none.
    @Test func bindingsAddedPressedAndRemovedAtReload() throws {
        let sway = try HeadlessCompositor(.sway())
        let socket = try sway.ipcSocketPath()
        let daemon = try DaemonProcess(
            config: "[keys]\nSuper+Alt+1 = copy t 0:0\nSuper+Alt+3 = paste t 0:0\n",
            environment: ["WAYLAND_DISPLAY": sway.socketPath, "SWAYSOCK": socket],
            homePrefix: "cliptab-sway-keys")
        defer { daemon.stop() }
        try daemon.call("CreateTable", [s("t")])
        try daemon.call("InsertRow", [s("t"), i(0), i(0), s("from sway's key")])
        let client = CliptabClient(
            connection: try daemon.connect(), timeoutMilliseconds: 10_000, sharedDeadline: false)
        #expect(try client.keyBindings().map(\.state) == ["bound-in-sway", "bound-in-sway"], "\(daemon.log)")

        // A virtual keyboard with a full keymap stands in for the person's.
        let connection = try WaylandSelectionService.connect(display: sway.socketPath)
        let keyboard = try connection.makeVirtualKeyboard(keymap: try WaylandKeymap())
        try keyboard.type(0x31, modifierKeysyms: [Self.superKey, Self.altKey])
        connection.processEvents(now: MonotonicClock.milliseconds())
        try waitFor("the copy of Super+Alt+1") {
            let paste = try sway.paste()
            return paste.termination == .exited(0) && paste.outputText == "from sway's key"
        }

        // The paste runs at the release binding: with no window focused it says so.
        try keyboard.type(0x33, modifierKeysyms: [Self.superKey, Self.altKey])
        connection.processEvents(now: MonotonicClock.milliseconds())
        try waitFor("the paste of Super+Alt+3") { daemon.log.contains("key Super+Alt+3 (paste t 0:0): ") }

        try daemon.rewriteConfig("[keys]\nSuper+Alt+2 = copy t 0:0\n")
        #expect(try daemon.reload() == [])
        #expect(try client.keyBindings().map(\.keys) == ["Super+Alt+2"])
        // sway finds no binding of Super+Alt+1 to remove any more: cliptabd removed it.
        let unbind = try sway.run(
            "swaymsg", ["--", "unbindsym", "--no-repeat", "Mod4+Mod1+1"], environment: ["SWAYSOCK": socket])
        #expect(unbind.termination != .exited(0), "\(unbind.outputText)")
        let current = try sway.run(
            "swaymsg", ["--", "unbindsym", "--no-repeat", "Mod4+Mod1+2"], environment: ["SWAYSOCK": socket])
        #expect(current.termination == .exited(0), "\(current.outputText) \(current.errorText)")

        // At exit cliptabd removes the rest: the release binding of Super+Alt+2 is gone.
        daemon.stop()
        let atExit = try sway.run(
            "swaymsg", ["--", "unbindsym", "--release", "Mod4+Mod1+2"], environment: ["SWAYSOCK": socket])
        #expect(atExit.termination != .exited(0), "\(atExit.outputText)")
    }
}
