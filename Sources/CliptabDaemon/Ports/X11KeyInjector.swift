// SPDX-License-Identifier: MIT
import CliptabCore
import KeyChords
import X11Desktop

/// The key injector of an X display: XTEST key events to the window that has the input
/// focus, sent on the selection backend's connection.
public final class X11KeyInjector: KeyInjector {
    private let backend: X11SelectionBackend
    private let waylandDisplay: String?

    /// Makes an injector over `backend`'s connection; `waylandDisplay` (the session's
    /// `WAYLAND_DISPLAY`, if any) names the case where no X11 window has the focus because
    /// a Wayland window has it.
    public init(backend: X11SelectionBackend, waylandDisplay: String?) {
        self.backend = backend
        self.waylandDisplay = waylandDisplay.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// X11 windows only: in a session with the portal, a Wayland window is the portal's.
    public var reach: KeyReach { .x11Windows }

    /// XTEST, for the log.
    public var summary: String { "XTEST" }

    /// The focused window and its client, or why a chord would reach none.
    public func focusedTarget() throws -> PasteTarget {
        let service = try backend.liveService()
        do {
            try service.checkKeystrokes()
        } catch {
            throw CliptabError(.clipboardUnavailable, error.description)
        }
        guard let focus = service.focusedWindow() else {
            if let waylandDisplay {
                throw NoPasteTarget(
                    "no X11 window has the input focus: the focused window belongs to Wayland (\(waylandDisplay)), "
                        + "and X11 cannot type into it")
            }
            throw NoPasteTarget("no window has the input focus, so no keystroke was sent")
        }
        let reader = service.client(of: focus.client != .none ? focus.client : focus.window)
        return PasteTarget(names: [focus.instanceName, focus.className], reader: reader)
    }

    /// The focused window's id, or nil.
    public func currentFocus() -> UInt64? {
        guard let service = try? backend.liveService() else { return nil }
        return service.currentFocus().map { UInt64($0.rawValue) }
    }

    /// Gives the input focus back to X window `window`.
    public func refocus(_ window: UInt64) throws {
        let service = try backend.liveService()
        guard service.refocus(WindowID(rawValue: UInt(window))) else {
            throw NoPasteTarget(
                "the window focused before (0x\(String(window, radix: 16))) is gone or cannot take the input focus"
            )
        }
    }

    /// Sends `chord` through XTEST.
    public func send(_ chord: KeyChord, repressModifiers: Bool) throws {
        let service = try backend.liveService()
        do {
            try service.sendKeystroke(chord, repressModifiers: repressModifiers)
        } catch {
            throw CliptabError(.clipboardUnavailable, error.description)
        }
    }
}
