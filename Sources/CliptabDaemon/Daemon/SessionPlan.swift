// SPDX-License-Identifier: MIT

/// Which clipboard backend and which paste injectors a session gets, decided from its
/// environment and the configured backend choice alone, so that every kind of session is
/// tested without one; `Daemon` only connects what it names.
public struct SessionPlan: Equatable, Sendable {
    /// A way of typing the paste chord, in the order the router tries them.
    public enum PasteRoute: Equatable, Sendable {
        /// XTEST into an X11 window (under XWayland in a Wayland session).
        case xtest
        /// The compositor's virtual keyboard into a Wayland window.
        case virtualKeyboard
        /// The RemoteDesktop portal, GNOME's and KDE's only way to type into a Wayland window.
        case portal
    }

    /// The Wayland data-control backend, tried first.
    public struct Wayland: Equatable, Sendable {
        /// `WAYLAND_DISPLAY`.
        public var display: String
        /// True when the configuration asks for Wayland (`backend = wayland`): kept even where
        /// the compositor offers no data-control, instead of falling back to X11.
        public var isRequired: Bool
        /// XWayland's `DISPLAY`, where XTEST types into X11 windows; nil without one.
        public var xtestDisplay: String?
        /// The chord's ways, in order.
        public var routes: [PasteRoute]
    }

    /// The X11 backend: the session's own, or the fallback of a compositor without
    /// data-control.
    public struct X11: Equatable, Sendable {
        /// `DISPLAY`, if set.
        public var display: String?
        /// `WAYLAND_DISPLAY` in a Wayland session: a focused window without an X11 one is a
        /// Wayland window, which the refusal says.
        public var waylandDisplay: String?
        /// Why X11 may not see the clipboard's owner in this session (the XWayland blind
        /// spot), or nil.
        public var blindSpot: String?
        /// The chord's ways, in order.
        public var routes: [PasteRoute]
    }

    /// How the keys of `[keys]` are bound in a session.
    public enum KeyRoute: Equatable, Sendable {
        /// Grabbed on the root window of this X display (an X11 session, any window manager).
        case grab(display: String)
        /// Added to sway's bindings through the IPC socket at this path (`SWAYSOCK`).
        case sway(socket: String)
        /// Bound through the GlobalShortcuts portal: GNOME, KDE and Hyprland on Wayland.
        case globalShortcuts
        /// Nothing to bind through: the compositor (lower case, as `cliptab keys --print`
        /// names it) takes its bindings from its own configuration, or nil when unknown.
        case none(compositor: String?)
    }

    /// The Wayland backend to try, or nil: X11 only.
    public var wayland: Wayland?
    /// The X11 backend, used when `wayland` is nil or refused (not required, no data-control).
    public var x11: X11
    /// True when the session types through the RemoteDesktop portal: GNOME or KDE on Wayland,
    /// whose compositors offer no virtual keyboard.
    public var usesPortal: Bool
    /// How the keys of `[keys]` are bound: decided by the session alone, whatever the
    /// clipboard's backend (a grab under XWayland would see keys only while an X11 window has
    /// the focus).
    public var keys: KeyRoute

    /// The plan for a session whose variables `environment` looks up (`DISPLAY`,
    /// `WAYLAND_DISPLAY`, `XDG_CURRENT_DESKTOP`), with the backend `choice`.
    public init(environment: (String) -> String?, choice: ClipboardBackendChoice) {
        let display = environment("DISPLAY").flatMap { $0.isEmpty ? nil : $0 }
        let waylandDisplay = environment("WAYLAND_DISPLAY").flatMap { $0.isEmpty ? nil : $0 }
        let desktops = Set(
            (environment("XDG_CURRENT_DESKTOP") ?? "").split(separator: ":").map { $0.uppercased() })
        usesPortal = waylandDisplay != nil && !desktops.isDisjoint(with: ["GNOME", "KDE"])
        let portal: [PasteRoute] = usesPortal ? [.portal] : []
        if choice != .x11, let waylandDisplay {
            wayland = Wayland(
                display: waylandDisplay, isRequired: choice == .wayland, xtestDisplay: display,
                routes: (display == nil ? [] : [.xtest]) + [.virtualKeyboard] + portal)
        }
        // mutter bridges every clipboard owner to X11; wlroots and KWin only while an X11
        // window has the focus (wlroots `xwayland/selection/incoming.c`, swaywm/sway#4678), and
        // what X11 holds then may be an older copy, cliptabd's own included.
        let blindSpot = waylandDisplay.flatMap { waylandDisplay in
            desktops.contains("GNOME")
                ? nil
                : "cliptabd reads the clipboard through XWayland, and the compositor at \(waylandDisplay) gives X11 "
                    + "programs a Wayland program's copy only while an X11 window has the focus: what X11 holds may be "
                    + "an older copy, so it is not read. Let cliptabd use the compositor's data-control "
                    + "([clipboard] backend = auto), or copy from an X11 window"
        }
        x11 = X11(
            display: display, waylandDisplay: waylandDisplay, blindSpot: blindSpot, routes: [.xtest] + portal)
        keys = Self.keyRoute(
            display: display, waylandDisplay: waylandDisplay, desktops: desktops,
            swaySocket: environment("SWAYSOCK").flatMap { $0.isEmpty ? nil : $0 },
            hyprland: environment("HYPRLAND_INSTANCE_SIGNATURE").map { !$0.isEmpty } ?? false)
    }

    /// The compositors that take bindings from their configuration only, by the name
    /// `XDG_CURRENT_DESKTOP` gives them (upper case) and the one `cliptab keys --print` takes.
    static let configOnlyCompositors = [
        "I3": "i3", "NIRI": "niri", "RIVER": "river", "LABWC": "labwc", "WAYFIRE": "wayfire",
    ]

    /// The key route of a session: sway's IPC where `SWAYSOCK` is set on Wayland; the portal
    /// on GNOME, KDE and Hyprland; on X11 the root window's grabs (whatever window manager);
    /// otherwise the compositor named, for its configuration lines.
    private static func keyRoute(
        display: String?, waylandDisplay: String?, desktops: Set<String>, swaySocket: String?, hyprland: Bool
    ) -> KeyRoute {
        guard waylandDisplay != nil else {
            if let display { return .grab(display: display) }
            return .none(compositor: desktops.lazy.compactMap { configOnlyCompositors[$0] }.first)
        }
        if let swaySocket { return .sway(socket: swaySocket) }
        if hyprland || !desktops.isDisjoint(with: ["GNOME", "KDE", "HYPRLAND"]) { return .globalShortcuts }
        if desktops.contains("SWAY") { return .none(compositor: "sway") }
        return .none(compositor: desktops.lazy.compactMap { configOnlyCompositors[$0] }.first)
    }

    /// Why the X11 fallback was taken, for its status: the compositor at `wayland`'s display
    /// refused data-control with `error`.
    public func noDataControlNote(_ error: String) -> String? {
        wayland.map {
            "the compositor at \($0.display) offers no data-control (\(error)); Wayland "
                + "programs get copies only where it bridges them"
        }
    }
}

extension SessionPlan.KeyRoute {
    /// Why `binding` is not bound where the route has no binder, with the line to add to
    /// the compositor's configuration where it is known.
    public func unboundReason(for binding: KeyBinding) -> String {
        let command = (["cliptab"] + binding.action.commandArguments).map(CompositorLines.shellWord)
            .joined(separator: " ")
        switch self {
        case .none(let compositor?):
            let line = CompositorLines.line(for: binding, compositor: compositor) ?? command
            return "\(compositor) takes its key bindings from its configuration only; add this line to it: "
                + "\(line) (all of them: cliptab keys --print \(compositor))"
        case .none(nil):
            return "no X11 display, sway or GlobalShortcuts portal to bind keys through; bind the keys to "
                + "\(command) in the desktop's settings (cliptab keys --print COMPOSITOR prints the lines of "
                + "\(CompositorLines.compositors.joined(separator: ", ")))"
        case .globalShortcuts:
            return
                "the desktop's GlobalShortcuts portal has not bound this key (no answer yet, or no portal); "
                + "bind the keys to \(command) in the desktop's settings"
        case .grab, .sway:
            return "the binder gave no answer for this key"
        }
    }
}
