// SPDX-License-Identifier: MIT
import MenuModel
import Testing

/// Which popup a session gets.
@Suite struct MenuFaceTests {
    @Test func x11WithoutAReachableCompositor() {
        #expect(MenuFace.choose(waylandDisplay: nil, connected: false, layerShell: false) == .x11)
        #expect(MenuFace.choose(waylandDisplay: "", connected: true, layerShell: true) == .x11)
        #expect(MenuFace.choose(waylandDisplay: "wayland-0", connected: false, layerShell: false) == .x11)
    }

    @Test func layerShellWhereOffered() {
        #expect(
            MenuFace.choose(waylandDisplay: "wayland-0", connected: true, layerShell: true) == .layerShell)
    }

    /// GNOME: no popup that cannot get the keyboard.
    @Test func refusedWithoutLayerShell() {
        #expect(MenuFace.choose(waylandDisplay: "wayland-0", connected: true, layerShell: false) == .refused)
    }
}
