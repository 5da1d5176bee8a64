// SPDX-License-Identifier: MIT
import DaemonTestSupport
import Foundation
import TestSupport
import Testing

/// The RemoteDesktop portal's session only while pasting: closed after
/// `[paste_to_focus] portal_idle_ms` where the portal keeps the consent (a version 2
/// stand-in, as Debian 12 ships 1.16), opened again with the restore token and no dialog;
/// opened again after the desktop closed it; kept on the real version 1 portal.
@Suite(.serialized)
struct PortalSessionIdleTests {
    static let idleConfig = "[log]\nlevel = debug\n[paste_to_focus]\nportal_idle_ms = 1000\n"

    /// The idle session is closed and the next paste reopens it without a dialog.
    ///
    /// After the idle time the portal sees `Close`; the next paste opens another session with
    /// the token, asks nothing, and lands. The app id was registered before the first
    /// RemoteDesktop call, once.
    @Test func idleSessionClosesAndReopensWithoutDialog() throws {
        let desk = try PortalDesk(.tokenFrontend, config: Self.idleConfig)
        try desk.add("first ✓", row: 0)
        try desk.add(" second", row: 1)
        try desk.ownClipboard("before the paste")

        let first = try desk.paste(0)
        #expect(first.delivered, "\(first.reason)\n\(desk.daemon.log)")
        _ = eventually { desk.field == "first ✓" }
        #expect(desk.field == "first ✓", "\(desk.daemon.log)")
        #expect(
            eventually(within: 20_000) { desk.frontendLog.contains("Session.Close\n") },
            "\(desk.frontendLog)\n\(desk.daemon.log)")
        #expect(desk.daemon.log.contains("is closed after 1000 ms without a paste"), "\(desk.daemon.log)")
        let token = try #require(Self.tokens(in: desk.frontendLog).first, "\(desk.frontendLog)")
        try waitFor("the clipboard to come back") { try desk.clipboard() == "before the paste" }

        let second = try desk.paste(1)
        #expect(second.delivered, "\(second.reason)\n\(desk.daemon.log)")
        _ = eventually { desk.field == "first ✓ second" }
        #expect(desk.field == "first ✓ second")
        #expect(desk.consents == ["grant"], "\(desk.frontendLog)")
        #expect(
            desk.frontendLog.contains(
                "Session.Close\nSelectDevices types=1 persist_mode=2 restore_token=\(token)\n"),
            "\(desk.frontendLog)")
        #expect(
            desk.frontendLog.hasPrefix("Register io.github.cliptab.Cliptab\nGet version\n"),
            "\(desk.frontendLog)")
        #expect(desk.frontendLog.components(separatedBy: "Register ").count == 2, "\(desk.frontendLog)")
    }

    /// A session the desktop closed (the screen lock) is opened again at the next paste,
    /// with the token: no dialog, and the text lands.
    @Test func desktopClosedSessionReopensAtTheNextPaste() throws {
        let desk = try PortalDesk(.tokenFrontend)
        try desk.add("before the lock", row: 0)
        try desk.add(" after", row: 1)
        try desk.ownClipboard("before the paste")

        #expect(try desk.paste(0).delivered, "\(desk.daemon.log)")
        #expect(eventually { desk.field == "before the lock" }, "\(desk.field)")
        // The next paste waits for the restore, as a person's next key press would.
        try waitFor("the clipboard to come back") { try desk.clipboard() == "before the paste" }
        let token = try #require(Self.tokens(in: desk.frontendLog).first, "\(desk.frontendLog)")
        try desk.closeSessionsAsTheDesktop()
        #expect(
            eventually(within: 20_000) { desk.daemon.log.contains("ended; the next paste starts another") },
            "\(desk.daemon.log)")

        let second = try desk.paste(1)
        #expect(second.delivered, "\(second.reason)\n\(desk.daemon.log)")
        _ = eventually { desk.field == "before the lock after" }
        #expect(desk.field == "before the lock after")
        #expect(desk.consents == ["grant"], "\(desk.frontendLog)")
        #expect(
            desk.frontendLog.contains("SelectDevices types=1 persist_mode=2 restore_token=\(token)\n"),
            "\(desk.frontendLog)")
        #expect(!desk.frontendLog.contains("Session.Close"), "\(desk.frontendLog)")
    }

    /// On the real xdg-desktop-portal 1.16 (RemoteDesktop version 1, no restore token) the
    /// session is kept after the idle time, and the next paste asks nothing.
    @Test func versionOneSessionIsKeptAfterTheIdleTime() throws {
        let desk = try PortalDesk(.test(consent: "grant"), config: Self.idleConfig)
        try desk.add("kept", row: 0)
        try desk.add(" open", row: 1)
        try desk.ownClipboard("before the paste")

        #expect(try desk.paste(0).delivered, "\(desk.daemon.log)")
        #expect(eventually { desk.field == "kept" }, "\(desk.field)")
        try waitFor("the clipboard to come back") { try desk.clipboard() == "before the paste" }
        #expect(
            eventually(within: 20_000) {
                desk.daemon.log.contains("is kept open after 1000 ms without a paste")
            },
            "\(desk.daemon.log)")
        #expect(!desk.backendLog.contains("Session.Close"), "\(desk.backendLog)")

        let second = try desk.paste(1)
        #expect(second.delivered, "\(second.reason)\n\(desk.daemon.log)")
        _ = eventually { desk.field == "kept open" }
        #expect(desk.field == "kept open")
        #expect(desk.consents == ["grant"], "\(desk.backendLog)")
        #expect(!desk.backendLog.contains("Session.Close"), "\(desk.backendLog)")
        #expect(desk.daemon.log.contains("desktop portal host registry: not offered"), "\(desk.daemon.log)")
    }

    /// The restore tokens the stand-in gave, in order.
    static func tokens(in log: String) -> [String] {
        log.split(separator: "\n").compactMap { line in
            line.hasPrefix("Start restore_token=")
                ? String(line.dropFirst("Start restore_token=".count)) : nil
        }
    }
}
