// SPDX-License-Identifier: MIT
import CliptabCore
import X11Selection

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
