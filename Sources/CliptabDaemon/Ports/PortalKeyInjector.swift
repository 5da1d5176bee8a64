// SPDX-License-Identifier: MIT
import KeyChords

/// The key injector of a GNOME or KDE Wayland session's own windows: the chord through the
/// RemoteDesktop portal (`RemoteDesktopPortal`), with XTEST kept for X11 windows under
/// XWayland where the daemon reads the clipboard through X11 (GNOME).
///
/// The portal cannot name the focused window, so a Wayland target gets the default chord
/// (no terminal's own) and its reads are not told from others'. The first paste waits for
/// the desktop's consent (`prepare`); a refusal or no portal is answered at once afterwards
/// with the reason, and the policy leaves the text on the clipboard for a paste by hand.
public final class PortalKeyInjector: KeyInjector {
    private let portal: RemoteDesktopPortal
    private let xtest: X11KeyInjector?
    /// Set by `focusedTarget` when an X11 window has the focus: XTEST types this paste.
    private var throughXTEST = false

    /// Makes the injector over `portal`, with `xtest` for X11 windows when the daemon has an
    /// X11 connection to XWayland.
    public init(portal: RemoteDesktopPortal, xtest: X11KeyInjector?) {
        self.portal = portal
        self.xtest = xtest
    }

    /// The injectors in words, for the log.
    public var summary: String {
        portal.summary + (xtest == nil ? "" : "; XTEST for X11 windows")
    }

    /// The focused X11 window when XWayland has one, else an unnamed Wayland window.
    public func focusedTarget() throws -> PasteTarget {
        if let xtest, let target = try? xtest.focusedTarget() {
            throughXTEST = true
            Log.line("paste chord through XTEST to the X11 window \(target.names)", level: .debug)
            return target
        }
        throughXTEST = false
        Log.line("paste chord through the RemoteDesktop portal to the focused Wayland window", level: .debug)
        return PasteTarget(names: [], reader: nil)
    }

    /// Ready at once for XTEST; for the portal once its session is started.
    public func prepare(_ ready: @escaping (NoPasteTarget?) -> Void) {
        if throughXTEST { return ready(nil) }
        portal.whenStarted(ready)
    }

    /// Sends `chord` through the injector `focusedTarget` chose.
    public func send(_ chord: KeyChord, repressModifiers: Bool) throws {
        if throughXTEST, let xtest { return try xtest.send(chord, repressModifiers: repressModifiers) }
        try portal.type(chord)
    }

    /// The focused X11 window, as XTEST names it; nil without XTEST.
    public func currentFocus() -> UInt64? { xtest?.currentFocus() }

    /// Gives the focus back to an X11 window; without XTEST none was named.
    public func refocus(_ window: UInt64) throws {
        guard let xtest else {
            throw NoPasteTarget("a Wayland program cannot give the input focus back to another window")
        }
        try xtest.refocus(window)
    }
}
