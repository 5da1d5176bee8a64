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
        let sway: HeadlessSway
        let daemon: DaemonProcess

        init(config: String? = nil, arguments: [String] = [], xwayland: Bool = false) throws {
            sway = try HeadlessSway(xwayland: xwayland)
            daemon = try DaemonProcess(
                config: config, arguments: arguments, environment: ["WAYLAND_DISPLAY": sway.socketPath],
                homePrefix: "cliptab-wayland")
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

    /// 10 MiB through wl-paste, byte for byte.
    @Test func tenMebibytes() throws {
        let desk = try Desk()
        let big = String(repeating: "0123456789abcdeé\n", count: (10 << 20) / 18)
        try desk.add(big)
        _ = try desk.daemon.call("Copy", [s("t"), i(0), i(0)], timeout: 60_000)
        #expect(try desk.wlPaste() == Array(big.utf8))
    }

    /// With `selections = clipboard primary` the copy reaches the primary selection too;
    /// ClearClipboard gives both up.
    @Test func primaryAndClear() throws {
        let desk = try Desk(config: "[clipboard]\nselections = clipboard primary\n")
        try desk.add("both")
        _ = try desk.daemon.call("Copy", [s("t"), i(0), i(0)])
        #expect(try desk.wlPaste(primary: true) == Array("both".utf8))
        try desk.daemon.call("ClearClipboard")
        try waitFor("the selections to be given up") {
            try desk.wlPaste() == nil && desk.wlPaste(primary: true) == nil
        }
    }

    /// A secret copy offers the password hint and leaves at its clear time.
    @Test func secretHintAndClear() throws {
        let desk = try Desk(arguments: ["--secret-clear-ms", "1500"])
        try desk.daemon.call("CreateTable", [s("pw")])
        try desk.add("hunter2", table: "pw")
        try desk.daemon.call("SetSecret", [s("pw"), .boolean(true)])
        _ = try desk.daemon.call("Copy", [s("pw"), i(0), i(0)])
        #expect(try desk.sway.offeredTypes().contains("x-kde-passwordManagerHint"))
        #expect(try desk.wlPaste(type: "x-kde-passwordManagerHint") == Array("secret".utf8))
        try waitFor("the secret to leave the clipboard", milliseconds: 10_000) { try desk.wlPaste() == nil }

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

    /// A paste into the focused window cannot type on Wayland yet: it says so at once, and the
    /// text is on the clipboard to paste by hand.
    @Test func pasteToFocusSaysWhy() throws {
        let desk = try Desk()
        try desk.add("by hand")
        let reply = try desk.daemon.call("PasteToFocusWithReason", [s("t"), i(0), i(0), .uint32(0)])
        #expect(reply.first == .boolean(false))
        guard case .string(let reason)? = reply.last else { throw FixtureError("no reason: \(reply)") }
        #expect(reason.contains("cannot type into the focused window on Wayland"), "\(reason)")
        #expect(try desk.wlPaste() == Array("by hand".utf8))
    }

    /// The compositor killed: tables are served, clipboard calls say the display is gone,
    /// and the daemon lives on.
    @Test func compositorGoneLeavesTablesServed() throws {
        let desk = try Desk()
        try desk.add("kept")
        _ = try desk.daemon.call("Copy", [s("t"), i(0), i(0)])
        desk.sway.stop()
        try waitFor("the copy to fail") {
            desk.daemon.errorName("Copy", [s("t"), i(0), i(0)]) == CliptabBus.errorPrefix
                + "ClipboardUnavailable"
        }
        #expect(try desk.daemon.call("GetCell", [s("t"), i(0), i(0)]) == [s("kept")])
        #expect(desk.daemon.process.isRunning)
    }

    /// `backend = x11` is taken as asked, and says where it is (here: no display at all).
    @Test func x11AsAsked() throws {
        let desk = try Desk(config: "[clipboard]\nbackend = x11\n")
        #expect(try desk.backend() == "x11 (no display)")
    }
}
