// SPDX-License-Identifier: MIT
import CliptabClient
import CliptabContract
import Glibc
import MenuDriver
import MenuModel
import PopupText
import PopupWayland

/// The Wayland branch of start-up: the layer-shell popup where the compositor offers it, a
/// one-line refusal where it does not, and nothing (the X11 popup) outside Wayland.
enum WaylandStart {
    /// Runs the menu on Wayland and returns its exit status, or nil when this session gets
    /// the X11 popup.
    static func run(settings: MenuSettings, table: String?, filter: String, timeout: Int32) -> Int32? {
        let display = getenv("WAYLAND_DISPLAY").map { String(cString: $0) }
        guard let display, !display.isEmpty else { return nil }
        // Most Wayland sessions get this popup: its font is readied on a helper thread while
        // this one waits on the compositor and the daemon.
        let font = TextFont.prepare(fontDescription: FontName.pangoDescription(settings.font))
        let popup = try? LayerPopup.connect()
        switch MenuFace.choose(
            waylandDisplay: display, connected: popup != nil, layerShell: popup?.hasLayerShell ?? false)
        {
        case .x11:
            return nil
        case .refused:
            printError("cliptab \(MenuRefusal.message)\n")
            return MenuExit.unavailable
        case .layerShell:
            guard let popup else { return nil }
            do {
                let client = try CliptabClient.connect(timeoutMilliseconds: timeout, sharedDeadline: false)
                // A compositor may give the daemon no way to paste (no focus it can reach): copy then.
                let surface = WaylandMenuSurface(popup: popup, settings: settings, font: font)
                let menu = MenuFrontEnd(
                    client: client, settings: settings, surface: surface, copiesWhenPasteRefused: true)
                return menu.run(table: table, filter: filter)
            } catch {
                printError("cliptab: cannot connect to the session bus: \(error)\n" + startHint)
                return MenuExit.unavailable
            }
        }
    }
}
