// SPDX-License-Identifier: MIT
import CliptabClient
import CliptabContract
import DBus
import DaemonTestSupport
import Foundation
import Glibc
import Posix
import TestSupport
import Testing

/// cliptabd on a headless sway (run as an unprivileged user, as sway wants), with the
/// Wayland backend chosen by itself, and wl-copy and wl-paste on the other side: what the X11
/// clipboard tests check, on Wayland.
@Suite(.serialized)
struct WaylandClipboardTests {
    /// A sway session and a cliptabd with `WAYLAND_DISPLAY` (and no `DISPLAY`), table "t".
    final class Desk {
        let sway: HeadlessCompositor
        let daemon: DaemonProcess
        /// With `extDataControl`, the proxy that names sway's data-control the standard way.
        let proxy: RegistryProxy?

        /// With `x11`, the daemon also gets sway's XWayland as `DISPLAY`; with
        /// `extDataControl`, it sees sway through a proxy that announces
        /// `zwlr_data_control_manager_v1` (version 2) as `ext_data_control_manager_v1` (1).
        init(
            config: String? = nil, arguments: [String] = [], xwayland: Bool = false, x11: Bool = false,
            desktop: String? = nil, extDataControl: Bool = false
        ) throws {
            sway = try HeadlessCompositor(.sway(xwayland: xwayland || x11))
            proxy =
                extDataControl
                ? try RegistryProxy(
                    sway, renaming: "zwlr_data_control_manager_v1", upstreamVersion: 2,
                    as: "ext_data_control_manager_v1", version: 1) : nil
            var environment = ["WAYLAND_DISPLAY": proxy?.socketPath ?? sway.socketPath]
            if let desktop { environment["XDG_CURRENT_DESKTOP"] = desktop }
            if x11 {
                let display = try sway.xwaylandDisplay()
                try sway.allowXClients(of: SessionUser.currentName, display: display)
                environment["DISPLAY"] = display
            }
            daemon = try DaemonProcess(
                config: config, arguments: arguments, environment: environment, homePrefix: "cliptab-wayland")
            try daemon.call("CreateTable", [s("t")])
        }

        deinit { daemon.stop() }

        /// Appends `text` to table "t"; returns its row index.
        @discardableResult
        func add(_ text: String, table: String = "t") throws -> Int32 {
            try daemon.call("InsertRow", [s(table), i(0), i(-1), s(text)])
            let count = try daemon.call("GetRows", [s(table), i(0), .uint32(0), .uint32(0)])
            guard case .array(_, let rows)? = count.first else { return 0 }
            return Int32(rows.count - 1)
        }

        /// What wl-paste reads from the clipboard (or primary), or nil when it finds nothing.
        func wlPaste(primary: Bool = false, type: String? = nil) throws -> [UInt8]? {
            let result = try sway.paste(type: type, primary: primary)
            return result.termination == .exited(0) ? result.standardOutput : nil
        }

        /// The `ClipboardBackend` property.
        func backend() throws -> String {
            let message = try CliptabClient.message(
                "Get", [s(CliptabBus.interface), s("ClipboardBackend")],
                interface: "org.freedesktop.DBus.Properties")
            let reply = try daemon.client.call(message, timeoutMilliseconds: 10_000).readValues()
            guard case .variant(.string(let summary))? = reply.first else {
                throw FixtureError("ClipboardBackend answered \(reply)")
            }
            return summary
        }
    }

    /// The backend is chosen and named; a copy reaches wl-paste exactly, and a wl-copy
    /// reaches Paste (never a stale copy of cliptabd's own).
    @Test func copyAndPasteBothWays() throws {
        let desk = try Desk()
        #expect(try desk.backend() == "wayland (zwlr_data_control_manager_v1 on \(desk.sway.socketPath))")
        let text = "first line\nzweite Zeile: grüße ✓\n\tlast"
        try desk.add(text)
        #expect(try desk.daemon.call("Copy", [s("t"), i(0), i(0)]) == [s(text)])
        #expect(try desk.wlPaste() == Array(text.utf8))
        #expect(try desk.sway.offeredTypes().contains("text/plain;charset=utf-8"))

        try desk.sway.copy(Array("from wayland".utf8))
        #expect(try desk.daemon.call("Paste", [s("t"), i(0), i(-1)]) == [s("from wayland")])
        #expect(try desk.daemon.call("GetClipboard") == [s("from wayland")])
        #expect(
            desk.daemon.log.contains("clipboard: wayland (zwlr_data_control_manager_v1"), "\(desk.daemon.log)"
        )
    }

    /// A compositor that names data-control `ext_data_control_manager_v1` (sway's own,
    /// renamed by a proxy: the same protocol) is bound by that name, on the same code path:
    /// copies reach both selections and wl-paste, a wl-copy reaches Paste, and the backend
    /// says which global it uses.
    @Test func extDataControlIsBoundByItsName() throws {
        let desk = try Desk(config: "[clipboard]\nselections = clipboard primary\n", extDataControl: true)
        let socket = try #require(desk.proxy).socketPath
        #expect(try desk.backend() == "wayland (ext_data_control_manager_v1 on \(socket))")
        let text = "through ext-data-control\nzweite Zeile ✓"
        try desk.add(text)
        #expect(try desk.daemon.call("Copy", [s("t"), i(0), i(0)]) == [s(text)])
        #expect(try desk.wlPaste() == Array(text.utf8))
        #expect(try desk.wlPaste(primary: true) == Array(text.utf8))

        try desk.sway.copy(Array("from wl-copy".utf8))
        #expect(try desk.daemon.call("Paste", [s("t"), i(0), i(-1)]) == [s("from wl-copy")])
        #expect(try desk.daemon.call("GetClipboard") == [s("from wl-copy")])
        #expect(
            desk.daemon.log.contains("clipboard: wayland (ext_data_control_manager_v1"), "\(desk.daemon.log)")
    }

    /// At SIGTERM a secret leaves the selections: nothing serves it after cliptabd is gone.
    @Test func secretClearedAtExit() throws {
        let desk = try Desk(config: "[clipboard]\nselections = clipboard primary\n")
        try desk.daemon.call("CreateTable", [s("pw")])
        try desk.add("hunter2", table: "pw")
        try desk.daemon.call("SetSecret", [s("pw"), .boolean(true)])
        _ = try desk.daemon.call("Copy", [s("pw"), i(0), i(0)])
        #expect(try desk.wlPaste() == Array("hunter2".utf8))
        desk.daemon.process.signal(SIGTERM)
        #expect(desk.daemon.process.waitForExit(timeoutMilliseconds: 10_000) == .exited(0))
        #expect(try desk.wlPaste() == nil && desk.wlPaste(primary: true) == nil)
    }

    /// Readers that stop reading cost only their own transfer: other readers get the whole
    /// 4 MiB text and table calls are answered meanwhile.
    @Test func stalledReadersCostOnlyThemselves() throws {
        let desk = try Desk()
        let big = String(repeating: "abcdefghijklmnop", count: (4 << 20) / 16)
        try desk.add(big)
        _ = try desk.daemon.call("Copy", [s("t"), i(0), i(0)], timeout: 60_000)
        // wl-paste writing into a pipe nobody reads: it blocks after the pipe's 64 KiB.
        let stalled = try (0..<3).map { _ in try desk.sway.spawn("wl-paste", ["--no-newline"], stdout: .pipe)
        }
        defer { for reader in stalled { reader.terminate(graceMilliseconds: 500) } }
        let readers = try (0..<3).map { _ in
            try desk.sway.spawn("sh", ["-c", "wl-paste --no-newline | wc -c"], stdout: .pipe, stderr: .null)
        }
        #expect(try desk.daemon.call("GetCell", [s("t"), i(0), i(0)], timeout: 10_000) == [s(big)])
        for reader in readers {
            #expect(
                reader.readLine(timeoutMilliseconds: 20_000)?.trimmingCharacters(in: .whitespaces)
                    == "\(big.utf8.count)")
        }
        #expect(desk.daemon.process.isRunning)
    }

    /// A paste with no window to type into (the headless seat has none) says so once the
    /// wait is over; the daemon types through its virtual keyboard, named in the log.
    @Test func pasteToFocusWithNoWindowSaysWhy() throws {
        let desk = try Desk()
        try desk.add("by hand")
        let reply = try desk.daemon.call("PasteToFocusWithReason", [s("t"), i(0), i(0), .uint32(300)])
        #expect(reply.first == .boolean(false))
        guard case .string(let reason)? = reply.last else { throw FixtureError("no reason: \(reply)") }
        #expect(reason.contains("did not fetch the text within 300 ms"), "\(reason)")
        #expect(
            desk.daemon.log.contains("paste keys: virtual keyboard with the keymap"), "\(desk.daemon.log)")
    }

    /// Where the compositor offers no virtual keyboard (here sway's, hidden by a proxy), a
    /// paste fails at once saying why and what to do, and the text stays on the clipboard.
    @Test func noVirtualKeyboardSaysWhatToDo() throws {
        let sway = try HeadlessCompositor(.sway())
        let proxy = try RegistryProxy(sway, hiding: "zwp_virtual_keyboard_manager_v1")
        let daemon = try DaemonProcess(
            environment: ["WAYLAND_DISPLAY": proxy.socketPath], homePrefix: "cliptab-wayland")
        defer { daemon.stop() }
        try daemon.call("CreateTable", [s("t")])
        try daemon.call("InsertRow", [s("t"), i(0), i(-1), s("by hand")])
        let start = MonotonicClock.milliseconds()
        let reply = try daemon.call("PasteToFocusWithReason", [s("t"), i(0), i(0), .uint32(5000)])
        #expect(reply.first == .boolean(false))
        guard case .string(let reason)? = reply.last else { throw FixtureError("no reason: \(reply)") }
        #expect(
            reason
                == "the Wayland compositor offers no virtual keyboard (zwp_virtual_keyboard_manager_v1; GNOME, KDE "
                + "and Weston have none), so cliptabd cannot type into the focused window: press Ctrl+V "
                + "(Ctrl+Shift+V in a terminal) yourself; the text is on the clipboard instead, to paste by hand"
        )
        // At once: not after the 5 s wait for a fetch.
        #expect(MonotonicClock.milliseconds() - start < 4000)
        let pasted = try sway.paste()
        #expect(pasted.outputText == "by hand")
        #expect(daemon.log.contains("paste keys: no virtual keyboard"), "\(daemon.log)")
    }

    /// The X11 backend on sway (asked for) does not see a Wayland program's copy while no X11
    /// window has the focus: Paste and GetClipboard say so and store nothing, never
    /// cliptabd's own older X11 copy (which they stored before).
    @Test func x11ThroughXWaylandNeverStoresAStaleText() throws {
        let desk = try Desk(config: "[clipboard]\nbackend = x11\n", x11: true)
        let backend = try desk.backend()
        #expect(backend.hasPrefix("x11 (:"), "\(backend)")
        try desk.add("cliptab's own")
        _ = try desk.daemon.call("Copy", [s("t"), i(0), i(0)])
        try desk.sway.copy(Array("from wayland".utf8))
        for member in ["Paste", "GetClipboard"] {
            let arguments = member == "Paste" ? [s("t"), i(0), i(-1)] : []
            do {
                let reply = try desk.daemon.call(member, arguments)
                Issue.record("\(member) answered \(reply), a text X11 may hold from before")
            } catch let error as BusError {
                #expect(error.name == CliptabBus.errorPrefix + "ClipboardUnavailable", "\(error)")
                #expect(error.message.contains("may be an older copy"), "\(error.message)")
            }
        }
        let rows = try desk.daemon.call("GetRows", [s("t"), i(0), .uint32(0), .uint32(0)])
        guard case .array(_, let stored)? = rows.first else { throw FixtureError("GetRows answered \(rows)") }
        #expect(stored.count == 1, "Paste stored a row: \(stored)")
    }

    /// On GNOME (named in `XDG_CURRENT_DESKTOP`) mutter bridges every owner to X11: the X11
    /// backend reads the clipboard there.
    @Test func x11ThroughXWaylandReadsOnGNOME() throws {
        let desk = try Desk(config: "[clipboard]\nbackend = x11\n", x11: true, desktop: "ubuntu:GNOME")
        try desk.add("cliptab's own")
        _ = try desk.daemon.call("Copy", [s("t"), i(0), i(0)])
        #expect(try desk.daemon.call("GetClipboard") == [s("cliptab's own")])
    }

    /// `backend = x11` is taken as asked, and says where it is (here: no display at all).
    @Test func x11AsAsked() throws {
        let desk = try Desk(config: "[clipboard]\nbackend = x11\n")
        #expect(try desk.backend() == "x11 (no display)")
    }
}
