// SPDX-License-Identifier: MIT
import DBus
import DaemonTestSupport
import Posix
import TestSupport
import Testing

/// On a headless sway, `{clipboard}` over a Wayland owner's text marked secret: the owner is
/// a second cliptabd (its own bus and store) serving a secret table's copy, which offers the
/// password-manager hint beside the text as KeePassXC does; wl-paste reads what the first
/// one copies.
@Suite(.serialized)
struct SecretTemplateWaylandTests {
    /// `cliptab copy` of `login: {clipboard}` over the marked text offers the hint to
    /// `wl-paste --list-types`, prints nothing, and leaves the clipboard after
    /// `secret_clear_ms`; over wl-copy's unmarked text it offers no hint and prints it.
    @Test func clipboardMarkedByAWaylandOwner() throws {
        let desk = try WaylandClipboardTests.Desk(config: "[clipboard]\nsecret_clear_ms = 6000\n")
        try desk.add("login: {clipboard}")
        try desk.daemon.call("SetTemplates", [s("t"), .boolean(true)])
        let owner = try DaemonProcess(
            environment: ["WAYLAND_DISPLAY": desk.sway.socketPath], homePrefix: "cliptab-wayland-owner")
        defer { owner.stop() }
        try owner.call("CreateTable", [s("kp")])
        try owner.call("InsertRow", [s("kp"), i(0), i(0), s("correct horse")])
        try owner.call("SetSecret", [s("kp"), .boolean(true)])
        _ = try owner.call("Copy", [s("kp"), i(0), i(0)])
        try waitFor("the owner's secret on the clipboard") {
            try desk.sway.offeredTypes().contains("x-kde-passwordManagerHint")
        }

        let cliptab = BuiltProducts.path(of: "cliptab")
        let copied = try ChildProcess.run(
            cliptab, ["copy", "t", "0:0"], environment: desk.daemon.environment, timeoutMilliseconds: 20_000)
        #expect(copied.termination == .exited(0), "\(copied.errorText)")
        #expect(copied.standardOutput.isEmpty, "cliptab printed the secret")
        #expect(try desk.wlPaste() == Array("login: correct horse".utf8))
        #expect(try desk.sway.offeredTypes().contains("x-kde-passwordManagerHint"))
        #expect(try desk.wlPaste(type: "x-kde-passwordManagerHint") == Array("secret".utf8))
        try waitFor("the filled-in secret to leave the clipboard", milliseconds: 20_000) {
            try desk.wlPaste() == nil
        }
        #expect(!desk.daemon.log.contains("correct horse"), "\(desk.daemon.log)")

        try desk.sway.copy(Array("open text".utf8))
        let plain = try ChildProcess.run(
            cliptab, ["copy", "t", "0:0"], environment: desk.daemon.environment, timeoutMilliseconds: 20_000)
        #expect(plain.outputText == "login: open text", "\(plain.errorText)")
        #expect(try !desk.sway.offeredTypes().contains("x-kde-passwordManagerHint"))
    }
}
