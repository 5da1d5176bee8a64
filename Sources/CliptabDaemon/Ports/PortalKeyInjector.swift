// SPDX-License-Identifier: MIT
import KeyChords

/// The key injector of a GNOME or KDE Wayland session's own windows: the chord through the
/// RemoteDesktop portal (`RemoteDesktopPortal`).
///
/// The portal cannot name the focused window, so a Wayland target gets the default chord
/// (no terminal's own) and its reads are not told from others'. The first paste waits for
/// the desktop's consent (`prepare`); a refusal or no portal is answered at once afterwards
/// with the reason, and the policy leaves the text on the clipboard for a paste by hand.
public final class PortalKeyInjector: KeyInjector {
    private let portal: RemoteDesktopPortal

    /// Makes the injector over `portal`.
    public init(portal: RemoteDesktopPortal) {
        self.portal = portal
    }

    /// Gives the portal the idle time of `settings` (`portal_idle_ms`).
    public func apply(_ settings: FocusPasteSettings) {
        portal.idleMilliseconds = settings.portalIdleMilliseconds
    }

    /// The portal in words, for the log.
    public var summary: String { portal.summary }

    /// An unnamed Wayland window.
    public func focusedTarget() throws -> PasteTarget {
        Log.line("paste chord through the RemoteDesktop portal to the focused Wayland window", level: .debug)
        return PasteTarget(names: [], reader: nil)
    }

    /// Ready once the portal's session is started.
    public func prepare(_ ready: @escaping (NoPasteTarget?) -> Void) {
        portal.whenStarted(ready)
    }

    /// Types `chord` through the portal.
    public func send(_ chord: KeyChord, repressModifiers: Bool) throws {
        try portal.type(chord)
    }

    /// None: the portal names no window.
    public func currentFocus() -> UInt64? { nil }

    /// Throws: a Wayland program cannot give the focus to another window.
    public func refocus(_ window: UInt64) throws {
        throw NoPasteTarget("a Wayland program cannot give the input focus back to another window")
    }
}
