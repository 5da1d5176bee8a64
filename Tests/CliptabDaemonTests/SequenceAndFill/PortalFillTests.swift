// SPDX-License-Identifier: MIT
import DBus
import DaemonTestSupport
import Foundation
import TestSupport
import Testing

/// `FillToFocus` through the RemoteDesktop portal (the real xdg-desktop-portal with the test
/// backend, typing through headless mutter into a GTK 3 entry on Wayland).
@Suite(.serialized)
struct PortalFillTests {
    /// Two rows land in the entry, Return sent between them through the portal (a lone
    /// entry ignores it), after one consent; the clipboard held before comes back.
    @Test func rowsAndReturnThroughThePortal() throws {
        let desk = try PortalDesk(.test(consent: "grant"))
        try desk.add("portal ✓", row: 0)
        try desk.add(" filled", row: 1)
        try desk.ownClipboard("before the fill")

        let reply = try desk.daemon.call(
            "FillToFocus",
            [s("t"), i(0), i(0), fillOptions(["then": s("enter"), "timeout_ms": .uint64(3000)])],
            timeout: 60_000)
        #expect(reply == [.uint32(2), s("")], "\(desk.backendLog)\n\(desk.daemon.log)")
        _ = eventually { desk.field == "portal ✓ filled" }
        #expect(desk.field == "portal ✓ filled", "\(desk.backendLog)")
        #expect(
            desk.backendLog.contains(
                "key 0x76 0\nkey 0xffe3 0\nkey 0xff0d 1\nkey 0xff0d 0\nkey 0xffe3 1\nkey 0x76 1"),
            "\(desk.backendLog)")
        try waitFor("the clipboard to come back") { try desk.clipboard() == "before the fill" }
        #expect(desk.consents == ["grant"])
    }
}
