// SPDX-License-Identifier: MIT
import Posix
import TestSupport
import Testing

/// GNOME Wayland: `cliptab menu` opens no popup that could not get the keyboard; it says in
/// one line what to use instead and exits 69.
struct GnomeRefusalTests {
    @Test(arguments: ["GNOME", "ubuntu:GNOME"])
    func gnomeWaylandIsRefusedInOneLine(desktop: String) throws {
        let home = try TemporaryDirectory()
        let result = try ChildProcess.run(
            BuiltProducts.path(of: "cliptab"), ["menu", "t"],
            environment: [
                "PATH": "/usr/bin:/bin", "HOME": home.path, "WAYLAND_DISPLAY": "wayland-cliptab-absent",
                "XDG_CURRENT_DESKTOP": desktop,
            ], timeoutMilliseconds: 20_000)
        #expect(result.termination == .exited(69))
        let lines = result.errorText.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasPrefix("cliptab: menu: "), "\(result.errorText)")
        #expect(result.errorText.contains("GNOME's search") && result.errorText.contains("cliptab pick"))
    }

    /// Elsewhere (sway's desktop name, or no Wayland) the popup is tried: here, with neither a
    /// compositor nor a display, it fails for another reason.
    @Test func otherDesktopsAreNotRefused() throws {
        let home = try TemporaryDirectory()
        let result = try ChildProcess.run(
            BuiltProducts.path(of: "cliptab"), ["menu", "t"],
            environment: [
                "PATH": "/usr/bin:/bin", "HOME": home.path, "WAYLAND_DISPLAY": "wayland-cliptab-absent",
                "XDG_CURRENT_DESKTOP": "sway",
            ], timeoutMilliseconds: 20_000)
        #expect(!result.errorText.contains("layer-shell"), "\(result.errorText)")
    }
}
