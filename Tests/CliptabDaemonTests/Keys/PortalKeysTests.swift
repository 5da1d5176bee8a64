// SPDX-License-Identifier: MIT
import CliptabClient
import CliptabDaemon
import DaemonTestSupport
import Foundation
import Posix
import TestSupport
import Testing

/// The built cliptabd binding `[keys]` on a GNOME-like Wayland session (headless mutter)
/// through the real xdg-desktop-portal 1.16, with test backends of its GlobalShortcuts
/// (the desktop's keys) and RemoteDesktop (the paste's typing) behind it.
@Suite(.serialized)
struct PortalKeysTests {
    static let keys = "[keys]\nSuper+Alt+1 = copy t 0:0\nSuper+Alt+I = paste t 0:1\n"

    /// `cliptab keys` lists the triggers the desktop bound; `Activated` of the copy's id
    /// puts row 0:0 on the clipboard, and the paste's text lands in the GTK entry only at
    /// its `Deactivated` (the key's release).
    @Test func activatedCopiesAndDeactivatedPastes() throws {
        let desk = try PortalDesk(.test(consent: "grant"), shortcuts: (answer: "grant", keys: Self.keys))
        try desk.add("copied by the desktop's key", row: 0)
        try desk.add("pasted at the release", row: 1)
        try desk.ownClipboard("before the keys")
        let client = CliptabClient(
            connection: try desk.daemon.connect(), timeoutMilliseconds: 10_000, sharedDeadline: false)
        try waitFor("the desktop to bind the keys", milliseconds: 30_000) {
            try client.keyBindings().allSatisfy { $0.state == "bound-by-desktop" }
        }
        let listing = try Self.keys(desk)
        #expect(
            listing.contains("Super+Alt+1\tcopy t 0:0\tbound by the desktop as LOGO+ALT+1"),
            "\(listing)\n\(desk.shortcutsLog)\n\(desk.daemon.log)")
        #expect(
            listing.contains("Super+Alt+I\tpaste t 0:1\tbound by the desktop as LOGO+ALT+i"), "\(listing)")
        let ids = Dictionary(uniqueKeysWithValues: try client.keyBindings().map { ($0.keys, $0.id) })
        let copy = try #require(ids["Super+Alt+1"])
        let paste = try #require(ids["Super+Alt+I"])

        try desk.desktop("activate \(copy)")
        try waitFor("the copy of the desktop's key", milliseconds: 20_000) {
            try desk.clipboard() == "copied by the desktop's key"
        }
        try desk.desktop("deactivate \(copy)")

        // The paste waits for the key's release: a copy pressed after the paste's press
        // (the signals come in order) shows the daemon had the press, and nothing was typed.
        try desk.ownClipboard("between the keys")
        try desk.desktop("activate \(paste)")
        try desk.desktop("activate \(copy)")
        try waitFor("the second copy of the desktop's key", milliseconds: 20_000) {
            try desk.clipboard() == "copied by the desktop's key"
        }
        try desk.desktop("deactivate \(copy)")
        #expect(desk.field.isEmpty, "typed before the key's release: \(desk.field)")
        try desk.desktop("deactivate \(paste)")
        _ = eventually(within: 20_000) { desk.field == "pasted at the release" }
        #expect(desk.field == "pasted at the release", "\(desk.backendLog)\n\(desk.daemon.log)")
    }

    /// The person cancelling the desktop's shortcuts dialog: `cliptab keys` says the keys
    /// are not bound and why, and the desktop's presses do nothing.
    @Test func refusalReported() throws {
        let desk = try PortalDesk(.test(consent: "grant"), shortcuts: (answer: "refuse", keys: Self.keys))
        try desk.add("never copied", row: 0)
        try desk.ownClipboard("before the keys")
        let client = CliptabClient(
            connection: try desk.daemon.connect(), timeoutMilliseconds: 10_000, sharedDeadline: false)
        try waitFor("the desktop's refusal", milliseconds: 30_000) {
            try client.keyBindings().allSatisfy { $0.detail.contains("cancelled") }
        }
        let listing = try Self.keys(desk)
        #expect(
            listing.contains(
                "Super+Alt+1\tcopy t 0:0\tnot bound: you cancelled the desktop's shortcuts dialog"),
            "\(listing)\n\(desk.shortcutsLog)\n\(desk.daemon.log)")
        #expect(listing.contains("Super+Alt+I\tpaste t 0:1\tnot bound: you cancelled"), "\(listing)")
        #expect(desk.shortcutsLog.contains("BindShortcuts cancelled"), "\(desk.shortcutsLog)")
        let copy = try #require(try client.keyBindings().first { $0.keys == "Super+Alt+1" }?.id)
        try desk.desktop("activate \(copy)")
        try desk.desktop("deactivate \(copy)")
        // A call after the signals: the daemon has taken them when it answers.
        _ = try client.keyBindings()
        #expect(try desk.clipboard() == "before the keys")
    }

    /// A portal that leaves the bus (a crash, an upgrade) and comes back: the keys are
    /// reported not bound while it is gone, and bound again when its name appears, with no
    /// reload.
    ///
    /// The app id is registered with the returned portal first, and the wait for the
    /// desktop's answer is logged once per session, not once per key.
    @Test func boundAgainWhenThePortalComesBack() throws {
        let desk = try PortalDesk(.test(consent: "grant"), shortcuts: (answer: "grant", keys: Self.keys))
        try desk.add("copied after the portal's return", row: 0)
        let client = CliptabClient(
            connection: try desk.daemon.connect(), timeoutMilliseconds: 10_000, sharedDeadline: false)
        try waitFor("the desktop to bind the keys", milliseconds: 30_000) {
            try client.keyBindings().allSatisfy { $0.state == "bound-by-desktop" }
        }

        try desk.stopPortal()
        try waitFor("the keys reported not bound", milliseconds: 20_000) {
            try client.keyBindings().allSatisfy { $0.detail.contains("the desktop portal left the bus") }
        }
        try desk.startPortal()
        try waitFor("the keys bound again", milliseconds: 30_000) {
            try client.keyBindings().allSatisfy { $0.state == "bound-by-desktop" }
        }
        #expect(desk.daemon.log.contains("the desktop portal came on the bus"), "\(desk.daemon.log)")
        let log = desk.daemon.log
        #expect(log.components(separatedBy: "desktop portal host registry:").count - 1 == 2, "\(log)")
        #expect(log.components(separatedBy: GlobalShortcutsBinder.waitingReason).count - 1 == 2, "\(log)")
        let copy = try #require(try client.keyBindings().first { $0.keys == "Super+Alt+1" }?.id)
        try desk.desktop("activate \(copy)")
        try waitFor("the copy of the desktop's key", milliseconds: 20_000) {
            try desk.clipboard() == "copied after the portal's return"
        }
        try desk.desktop("deactivate \(copy)")
    }

    /// The output of the built `cliptab keys` on the desk's bus.
    static func keys(_ desk: PortalDesk) throws -> String {
        let result = try ChildProcess.run(
            BuiltProducts.path(of: "cliptab"), ["keys"], environment: desk.daemon.environment,
            timeoutMilliseconds: 30_000)
        guard result.termination == .exited(0) else {
            throw FixtureError("cliptab keys failed: \(result.errorText)")
        }
        return result.outputText
    }
}
