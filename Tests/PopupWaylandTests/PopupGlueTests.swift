// SPDX-License-Identifier: MIT
import Foundation
import Glibc
import PopupWayland
import Posix
import TestSupport
import Testing

/// The popup's C glue is what `protocols/regenerate` makes, and it speaks to a real sway.
@Suite(.serialized)
struct PopupGlueTests {
    @Test("The C glue of layer-shell (and xdg-shell's tables) is current")
    func glueIsCurrent() throws {
        let glue = try GeneratedGlue(module: "CWaylandPopup")
        #expect(
            glue.names == [
                "wlr-layer-shell-unstable-v1-client-protocol.h", "wlr-layer-shell-unstable-v1-protocol.c",
                "xdg-shell-protocol.c",
            ])
        #expect(glue.stale.isEmpty, "\(glue.stale) differ from protocols/regenerate's output: run it")
    }

    /// sway offers layer-shell; the overlay covers its output, a frame draws only the box's
    /// pixels (at the output's scale), and hiding it twice is harmless.
    @Test func showsAnOverlayOnSway() throws {
        let sway = try HeadlessCompositor(.sway(xwayland: false))
        defer { sway.stop() }
        setenv("WAYLAND_DISPLAY", sway.socketPath, 1)
        defer { unsetenv("WAYLAND_DISPLAY") }
        let popup = try LayerPopup.connect()
        #expect(popup.hasLayerShell)
        try popup.show(namespace: "cliptab-test")
        #expect(popup.isShown)
        let size = popup.size
        #expect(size.width > 0 && size.height > 0 && size.scale == 1, "\(size)")
        try popup.frame(width: 200, height: 100, x: 10, y: 20) { pixels, width, height, stride, fresh in
            #expect(width == 200 && height == 100 && stride == width * 4 && fresh)
            memset(pixels, 0, stride * height)
        }
        try popup.hide()
        try popup.hide()
        #expect(!popup.isShown)
    }
}
