// SPDX-License-Identifier: MIT
import CliptabConfig
import CliptabDaemon
import Testing

/// The backend and paste routes each kind of session gets (`SessionPlan`).
struct SessionPlanTests {
    private func plan(_ variables: [String: String], _ choice: ClipboardBackendChoice = .auto) -> SessionPlan
    {
        SessionPlan(environment: { variables[$0] }, choice: choice)
    }

    @Test func x11Only() {
        let plan = plan(["DISPLAY": ":0", "XDG_CURRENT_DESKTOP": "XFCE"])
        #expect(plan.wayland == nil && !plan.usesPortal)
        #expect(plan.x11.display == ":0" && plan.x11.waylandDisplay == nil)
        #expect(plan.x11.blindSpot == nil && plan.x11.routes == [.xtest])
        // GNOME on X11 has no portal route: XTEST types into every window.
        #expect(self.plan(["DISPLAY": ":0", "XDG_CURRENT_DESKTOP": "GNOME"]).x11.routes == [.xtest])
    }

    @Test func waylandWithXWayland() throws {
        let plan = plan(["DISPLAY": ":1", "WAYLAND_DISPLAY": "wayland-1", "XDG_CURRENT_DESKTOP": "sway"])
        let wayland = try #require(plan.wayland)
        #expect(wayland.display == "wayland-1" && !wayland.isRequired && wayland.xtestDisplay == ":1")
        #expect(wayland.routes == [.xtest, .virtualKeyboard])
        #expect(!plan.usesPortal && plan.x11.routes == [.xtest] && plan.x11.waylandDisplay == "wayland-1")
    }

    @Test func waylandWithoutXWayland() throws {
        let plan = plan(["WAYLAND_DISPLAY": "wayland-1", "DISPLAY": ""])
        let wayland = try #require(plan.wayland)
        #expect(wayland.display == "wayland-1" && !wayland.isRequired && wayland.xtestDisplay == nil)
        #expect(wayland.routes == [.virtualKeyboard])
        #expect(plan.x11.display == nil)
    }

    @Test(arguments: ["GNOME", "ubuntu:GNOME", "KDE", "kde"])
    func portalDesktops(desktop: String) {
        let plan = plan(["DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0", "XDG_CURRENT_DESKTOP": desktop])
        #expect(plan.usesPortal)
        #expect(plan.wayland?.routes == [.xtest, .virtualKeyboard, .portal])
        #expect(plan.x11.routes == [.xtest, .portal])
    }

    @Test func backendChoice() {
        let session = ["DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0"]
        #expect(plan(session, .auto).wayland?.isRequired == false)
        #expect(plan(session, .wayland).wayland?.isRequired == true)
        #expect(plan(session, .x11).wayland == nil)
        #expect(plan(session, .x11).x11.display == ":0")
        // Asked for Wayland without a compositor: X11 is all there is.
        #expect(plan(["DISPLAY": ":0"], .wayland).wayland == nil)
        #expect(
            plan(session).noDataControlNote("no manager")?.contains("wayland-0 offers no data-control")
                == true)
        #expect(plan(session, .x11).noDataControlNote("no manager") == nil)
    }

    @Test func xwaylandBlindSpot() throws {
        // wlroots and KWin bridge a Wayland copy only while an X11 window has the focus.
        let sway = plan(
            ["DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0", "XDG_CURRENT_DESKTOP": "sway"], .x11)
        let spot = try #require(sway.x11.blindSpot)
        #expect(spot.contains("wayland-0") && spot.contains("backend = auto"))
        #expect(
            plan(["DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0", "XDG_CURRENT_DESKTOP": "KDE"]).x11
                .blindSpot != nil)
        // mutter bridges every owner; an X11 session has no compositor to be blind to.
        #expect(
            plan(["DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0", "XDG_CURRENT_DESKTOP": "GNOME"]).x11
                .blindSpot == nil)
        #expect(plan(["DISPLAY": ":0"]).x11.blindSpot == nil)
    }

    /// The keys of `[keys]`: grabbed on X11 whatever the window manager; sway's IPC where
    /// `SWAYSOCK` is set; the portal on GNOME, KDE and Hyprland; elsewhere the compositor
    /// named for its lines; never XWayland's root window.
    @Test func keyRoutes() {
        #expect(plan(["DISPLAY": ":0", "XDG_CURRENT_DESKTOP": "i3"]).keys == .grab(display: ":0"))
        #expect(plan(["DISPLAY": ":0", "XDG_CURRENT_DESKTOP": "GNOME"]).keys == .grab(display: ":0"))
        #expect(
            plan(["DISPLAY": ":1", "WAYLAND_DISPLAY": "wayland-1", "SWAYSOCK": "/run/sway.sock"]).keys
                == .sway(socket: "/run/sway.sock"))
        for desktop in ["GNOME", "ubuntu:GNOME", "KDE", "Hyprland"] {
            #expect(
                plan(["DISPLAY": ":1", "WAYLAND_DISPLAY": "wayland-1", "XDG_CURRENT_DESKTOP": desktop]).keys
                    == .globalShortcuts, "\(desktop)")
        }
        #expect(plan(["WAYLAND_DISPLAY": "w", "HYPRLAND_INSTANCE_SIGNATURE": "x"]).keys == .globalShortcuts)
        #expect(
            plan(["DISPLAY": ":1", "WAYLAND_DISPLAY": "w", "XDG_CURRENT_DESKTOP": "niri"]).keys
                == .none(compositor: "niri"))
        #expect(
            plan(["WAYLAND_DISPLAY": "w", "XDG_CURRENT_DESKTOP": "sway"]).keys == .none(compositor: "sway"))
        #expect(
            plan(["WAYLAND_DISPLAY": "w", "XDG_CURRENT_DESKTOP": "COSMIC"]).keys == .none(compositor: nil))
        #expect(plan([:]).keys == .none(compositor: nil))
    }

    /// Where there is nothing to bind through, the reason carries the compositor's line.
    @Test func unboundReasonNamesTheLine() throws {
        let binding = try KeyBinding(keys: "Super+Alt+i", action: "paste snippets sig", line: 3)
        #expect(binding.keys == "Super+Alt+I" && binding.id == "paste-snippets-sig")
        let reason = SessionPlan.KeyRoute.none(compositor: "river").unboundReason(for: binding)
        #expect(
            reason.contains(
                "riverctl map -release normal Super+Alt i spawn 'cliptab copy --paste snippets sig'"),
            "\(reason)")
        #expect(
            SessionPlan.KeyRoute.none(compositor: nil).unboundReason(for: binding).contains(
                "cliptab copy --paste"))
    }
}
