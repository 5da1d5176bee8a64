// SPDX-License-Identifier: MIT
import DBus

/// The clipboard: the backend the session has, the paste keys' routes, and the
/// RemoteDesktop portal where the session types through it.
extension Daemon {
    /// The clipboard with `settings` over the backend the session and `configuration` choose,
    /// announcing its changes to `announcer`; the RemoteDesktop portal on `bus` where the
    /// session types through it.
    func makeClipboard(
        _ settings: ClipboardSettings, configuration: DaemonConfiguration, bus: BusConnection,
        announcer: ChangeAnnouncer
    ) -> ClipboardPolicy {
        let plan = SessionPlan(environment: environment, choice: configuration.backend)
        let clipboard = makeClipboard(
            settings, plan: plan, announcer: announcer,
            portal: plan.usesPortal ? portal(on: bus, configuration: configuration) : nil)
        Log.line("clipboard: \(clipboard.backend.summary)")
        return clipboard
    }

    /// The clipboard over the backend `plan` names: Wayland's data-control where the
    /// session has it (or where it is asked for), X11 otherwise.
    private func makeClipboard(
        _ settings: ClipboardSettings, plan: SessionPlan, announcer: ChangeAnnouncer,
        portal: RemoteDesktopPortal?
    ) -> ClipboardPolicy {
        var note: String?
        if let wayland = plan.wayland {
            let keyboards = VirtualKeyboardSupply()
            let backend = WaylandSelectionBackend(
                display: wayland.display, settings: settings, keyboards: keyboards, clock: clock)
            if wayland.isRequired || backend.connectError == nil {
                let keyboard = VirtualKeyboardInjector(backend: backend, keyboards: keyboards)
                let routes: [KeyInjector] = wayland.routes.compactMap { route in
                    switch route {
                    case .xtest:
                        wayland.xtestDisplay.map {
                            let xtest = XWaylandKeyInjector(display: $0, settings: settings, clock: clock)
                            xwayland = xtest
                            return WaylandMarkedInjector(xtest, wayland: keyboard)
                        }
                    case .virtualKeyboard: keyboard
                    case .portal:
                        portal.map { WaylandMarkedInjector(PortalKeyInjector(portal: $0), wayland: keyboard) }
                    }
                }
                return clipboardPolicy(
                    backend: backend, routes: routes, settings: settings, announcer: announcer)
            }
            note = plan.noDataControlNote(backend.connectError ?? "")
        }
        let backend = X11SelectionBackend(
            display: plan.x11.display, settings: settings, waylandNote: note, blindSpot: plan.x11.blindSpot,
            clock: clock)
        let routes: [KeyInjector] = plan.x11.routes.compactMap { route in
            switch route {
            case .xtest: X11KeyInjector(backend: backend, waylandDisplay: plan.x11.waylandDisplay)
            case .virtualKeyboard: nil
            case .portal: portal.map { PortalKeyInjector(portal: $0) }
            }
        }
        return clipboardPolicy(backend: backend, routes: routes, settings: settings, announcer: announcer)
    }

    /// The policy over `backend`, typing the paste chord through the first of `routes` that
    /// reaches the focused window.
    private func clipboardPolicy(
        backend: SelectionBackend, routes: [KeyInjector], settings: ClipboardSettings,
        announcer: ChangeAnnouncer
    ) -> ClipboardPolicy {
        let router = PasteRouter(routes: routes)
        Log.line("paste keys: \(router.summary)")
        return ClipboardPolicy(
            backend: backend, injector: router, settings: settings, announcer: announcer,
            clock: clock)
    }

    /// The RemoteDesktop portal client, keeping its restore token in the data directory and
    /// closing an idle session after `[paste_to_focus] portal_idle_ms` (a reload hands it
    /// the new value through the policy's settings).
    private func portal(on bus: BusConnection, configuration: DaemonConfiguration) -> RemoteDesktopPortal {
        let directory = try? configurator.dataDirectory(of: configuration)
        let portal = RemoteDesktopPortal(
            bus: bus, tokenFile: directory.map { RestoreTokenFile(directory: $0) },
            registration: hostRegistration(on: bus), clock: clock,
            idleMilliseconds: configuration.focusPaste.portalIdleMilliseconds)
        remoteDesktop = portal
        return portal
    }

    /// The one registration of the app id with the desktop portal on `bus`.
    func hostRegistration(on bus: BusConnection) -> PortalHostRegistration {
        if let portalRegistration { return portalRegistration }
        let registration = PortalHostRegistration(bus: bus)
        portalRegistration = registration
        return registration
    }
}
