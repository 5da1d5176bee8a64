// SPDX-License-Identifier: MIT
import CliptabCore
import KeyChords
import Posix
import WaylandSelection
import X11Selection

/// The key injector of a Wayland session, chosen per paste from the focused window: an
/// X11 window under XWayland gets XTEST, as on an X11 session; any other gets the virtual
/// keyboard (`VirtualKeyboardInjector`), or, where the compositor has none (KDE), the
/// RemoteDesktop portal when the session has one (`portal`), or the reason why it cannot.
///
/// Either way the reads of the target come through the compositor to the Wayland selection
/// backend, so each chord goes with a keystroke mark on the backend's connection (in the
/// same write as the virtual keyboard's keys; just before XTEST's): the reads asked for
/// before the compositor handled the mark (clipboard managers, the compositor's own) do not
/// count as the target's.
public final class WaylandSessionInjector: KeyInjector {
    private let wayland: VirtualKeyboardInjector
    /// XWayland's `DISPLAY`, where the session has one.
    private let x11Display: String?
    private let settings: ClipboardSettings
    /// The RemoteDesktop portal, for Wayland windows where the compositor offers no virtual
    /// keyboard (KDE).
    private let portal: PortalKeyInjector?
    /// The XTEST injector, made at the first paste (connecting starts XWayland where the
    /// compositor starts it on demand).
    private var x11: (backend: X11SelectionBackend, injector: X11KeyInjector)?
    /// The injector the last `focusedTarget` chose.
    private var chosen: KeyInjector?

    /// Makes the injector: `wayland` (or `portal` where it has no keyboard) for Wayland
    /// windows, XTEST on `x11Display` (XWayland) for X11 windows.
    public init(
        wayland: VirtualKeyboardInjector, portal: PortalKeyInjector? = nil, x11Display: String?,
        settings: ClipboardSettings
    ) {
        self.wayland = wayland
        self.portal = portal
        self.x11Display = x11Display.flatMap { $0.isEmpty ? nil : $0 }
        self.settings = settings
    }

    /// The injectors in words, for the log.
    public var summary: String {
        wayland.summary + (portal.map { "; where it has none, " + $0.summary } ?? "")
            + (x11Display.map { "; XTEST for X11 windows on \($0)" } ?? "")
    }

    /// The focused X11 window (by `WM_CLASS`) when XWayland has one, else the Wayland
    /// window (by app id); the reader is the next keystroke mark either way.
    public func focusedTarget() throws -> PasteTarget {
        let service = try wayland.liveService()
        if let x11 = xtest() {
            x11.backend.process(now: MonotonicClock.milliseconds())
            if let target = try? x11.injector.focusedTarget() {
                chosen = x11.injector
                Log.line("paste chord through XTEST to the X11 window \(target.names)", level: .debug)
                return PasteTarget(names: target.names, reader: service.nextKeystrokeMark)
            }
        }
        chosen = wayland
        let target: PasteTarget
        do {
            target = try wayland.focusedTarget()
        } catch let refusal as NoPasteTarget where refusal.reason == VirtualKeyboardInjector.noKeyboardReason
        {
            guard let portal else { throw refusal }
            chosen = portal
            _ = try portal.focusedTarget()
            return PasteTarget(
                names: service.activatedAppID.map { [$0] } ?? [], reader: service.nextKeystrokeMark)
        }
        Log.line("paste chord through the virtual keyboard to the window \(target.names)", level: .debug)
        return target
    }

    /// Waits for the portal's session where the portal types this paste.
    public func prepare(_ ready: @escaping (NoPasteTarget?) -> Void) {
        guard let portal, chosen === portal else { return ready(nil) }
        portal.prepare(ready)
    }

    /// Sends `chord` through the injector `focusedTarget` chose.
    ///
    /// Before XTEST the keystroke is marked on the Wayland connection, sent at once and not
    /// waited for: the X11 target's read goes from the X server through XWayland to the
    /// compositor, which by then has handled the mark that reached it first. Marked after
    /// the keys (even after the X server's answer), the target's read could beat the mark
    /// (1 paste in 3 runs of the tests), and it would not count.
    public func send(_ chord: KeyChord, repressModifiers: Bool) throws {
        // The portal's keys, like XTEST's, reach the compositor after the mark.
        guard let chosen, chosen !== wayland else {
            return try wayland.send(chord, repressModifiers: repressModifiers)
        }
        try wayland.markKeystroke(on: try wayland.liveService())
        try chosen.send(chord, repressModifiers: repressModifiers)
    }

    /// None, as the Wayland backend has always answered (`GetFocusedWindow` 0): on a
    /// Wayland session the compositor gives the focus back to the window a launcher
    /// covered, and asking XWayland would start it where the compositor starts it on
    /// demand.
    public func currentFocus() -> UInt64? { nil }

    /// Throws: no window was named (`currentFocus` is nil).
    public func refocus(_ window: UInt64) throws { try wayland.refocus(window) }

    private func xtest() -> (backend: X11SelectionBackend, injector: X11KeyInjector)? {
        if let x11 { return x11 }
        guard let x11Display else { return nil }
        let backend = X11SelectionBackend(
            display: x11Display, settings: settings, waylandNote: "for XTEST into X11 windows only")
        let made = (backend, X11KeyInjector(backend: backend, waylandDisplay: nil))
        x11 = made
        return made
    }
}
